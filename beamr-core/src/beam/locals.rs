//! The `LocT` chunk: the module's local (unexported) functions, in the
//! layout of [`exports`](super::exports). Debuggers and the JIT's symbol
//! output use it; the loader does not need it.

use super::atoms::AtomTable;
use super::container::RawChunk;
use super::error::BeamError;
use super::exports::{parse_function_table, FunctionEntry};

/// Parses a `LocT` chunk.
pub fn parse_locals(
    chunk: &RawChunk<'_>,
    atoms: &AtomTable,
) -> Result<Vec<FunctionEntry>, BeamError> {
    parse_function_table(chunk, atoms)
}
