//! The `ImpT` chunk: the functions this module calls in other modules (and
//! the BIFs it calls, which are imports of `erlang`).
//!
//! ```text
//! 4          count, big-endian u32
//! count * 12 entries: module atom, function atom, arity (big-endian u32 each)
//! ```

use super::atoms::AtomTable;
use super::container::RawChunk;
use super::error::{BeamError, BeamErrorKind};

/// One imported function: `module:function/arity`, as atom indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Import {
    /// The module's atom index.
    pub module: u32,
    /// The function's atom index.
    pub function: u32,
    /// The arity.
    pub arity: u32,
}

/// The largest arity a BEAM function can have.
pub const MAX_ARITY: u32 = 255;

/// Parses an `ImpT` chunk, checking every atom index against `atoms`.
pub fn parse_imports(chunk: &RawChunk<'_>, atoms: &AtomTable) -> Result<Vec<Import>, BeamError> {
    let mut r = chunk.reader();
    let count = r.count("imports", 12)?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let at = r.offset();
        let module = r.u32()?;
        let function = r.u32()?;
        let arity = r.u32()?;
        atoms.check(chunk, at, "module atom", module)?;
        atoms.check(chunk, at + 4, "function atom", function)?;
        check_arity(&r, at + 8, arity)?;
        out.push(Import {
            module,
            function,
            arity,
        });
    }
    Ok(out)
}

/// Rejects an arity above [`MAX_ARITY`].
pub(crate) fn check_arity(
    r: &super::reader::Reader<'_>,
    at: usize,
    arity: u32,
) -> Result<(), BeamError> {
    if arity > MAX_ARITY {
        return Err(r.error_at(
            at,
            BeamErrorKind::BadValue {
                what: "arity",
                value: i64::from(arity),
            },
        ));
    }
    Ok(())
}
