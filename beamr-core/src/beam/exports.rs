//! The `ExpT` chunk: the exported functions and their entry labels. The
//! `LocT` chunk (see [`locals`](super::locals)) has the same layout.
//!
//! ```text
//! 4          count, big-endian u32
//! count * 12 entries: function atom, arity, entry label (big-endian u32 each)
//! ```

use super::atoms::AtomTable;
use super::container::RawChunk;
use super::error::BeamError;
use super::imports::check_arity;

/// A function of this module: name, arity and entry label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FunctionEntry {
    /// The function's atom index.
    pub function: u32,
    /// The arity.
    pub arity: u32,
    /// The label of the function's first instruction (after `func_info`).
    pub label: u32,
}

/// Parses an `ExpT` chunk.
pub fn parse_exports(
    chunk: &RawChunk<'_>,
    atoms: &AtomTable,
) -> Result<Vec<FunctionEntry>, BeamError> {
    parse_function_table(chunk, atoms)
}

/// Parses a table of [`FunctionEntry`] (the layout of `ExpT` and `LocT`).
pub(crate) fn parse_function_table(
    chunk: &RawChunk<'_>,
    atoms: &AtomTable,
) -> Result<Vec<FunctionEntry>, BeamError> {
    let mut r = chunk.reader();
    let count = r.count("functions", 12)?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let at = r.offset();
        let function = r.u32()?;
        let arity = r.u32()?;
        let label = r.u32()?;
        atoms.check(chunk, at, "function atom", function)?;
        check_arity(&r, at + 4, arity)?;
        out.push(FunctionEntry {
            function,
            arity,
            label,
        });
    }
    Ok(out)
}
