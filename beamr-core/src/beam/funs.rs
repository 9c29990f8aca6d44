//! The `FunT` chunk: one entry per `fun` expression in the module.
//!
//! ```text
//! 4          count, big-endian u32
//! count * 24 entries, six big-endian u32 each:
//!            function atom, arity (including free variables), entry label,
//!            index, number of free variables, old unique value
//! ```

use super::atoms::AtomTable;
use super::container::RawChunk;
use super::error::BeamError;

/// One lambda: the function that implements it and how it is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lambda {
    /// The implementing function's atom index (`'-f/1-fun-0-'`).
    pub function: u32,
    /// The implementing function's arity (the fun's arity plus `num_free`).
    pub arity: u32,
    /// The implementing function's entry label.
    pub label: u32,
    /// The fun's index in the module.
    pub index: u32,
    /// The number of captured (free) variables.
    pub num_free: u32,
    /// The old unique value (from the module's MD5).
    pub old_uniq: u32,
}

/// Parses a `FunT` chunk.
pub fn parse_funs(chunk: &RawChunk<'_>, atoms: &AtomTable) -> Result<Vec<Lambda>, BeamError> {
    let mut r = chunk.reader();
    let count = r.count("funs", 24)?;
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let at = r.offset();
        let function = r.u32()?;
        atoms.check(chunk, at, "function atom", function)?;
        out.push(Lambda {
            function,
            arity: r.u32()?,
            label: r.u32()?,
            index: r.u32()?,
            num_free: r.u32()?,
            old_uniq: r.u32()?,
        });
    }
    Ok(out)
}
