//! The `Code` chunk's header and its instruction bytes.
//!
//! ```text
//! 4   header size in bytes after this field (16 for every known version)
//! 4   instruction set version, big-endian u32 (0 for every OTP release)
//! 4   highest opcode used
//! 4   number of labels (labels are 1..count-1)
//! 4   number of functions
//! ... (header size - 16) more header bytes, skipped
//! ... the instructions: an opcode byte, then that opcode's operands in the
//!     compact term encoding, until `int_code_end`
//! ```
//!
//! [`decode`](super::decode) turns the instruction bytes into
//! [`Instruction`](super::instruction::Instruction)s.

use super::container::RawChunk;
use super::error::{BeamError, BeamErrorKind};

/// The only instruction set version there has ever been.
pub const FORMAT_NUMBER: u32 = 0;

/// The Code chunk: header fields and the undecoded instruction bytes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CodeChunk {
    /// Instruction set version (0).
    pub format: u32,
    /// The highest opcode the compiler used.
    pub max_opcode: u32,
    /// Number of labels.
    pub label_count: u32,
    /// Number of functions.
    pub function_count: u32,
    /// Absolute file offset of the first instruction byte.
    pub code_offset: usize,
    /// The instruction bytes.
    pub code: Vec<u8>,
}

/// Parses the Code chunk's header and keeps its instruction bytes.
pub fn parse_code(chunk: &RawChunk<'_>) -> Result<CodeChunk, BeamError> {
    let mut r = chunk.reader();
    let header_at = r.offset();
    let header_size = r.u32()? as usize;
    if header_size < 16 || header_size > r.remaining() {
        return Err(r.error_at(
            header_at,
            BeamErrorKind::PastEnd {
                size: header_size as u64,
                available: r.remaining(),
            },
        ));
    }
    let format_at = r.offset();
    let format = r.u32()?;
    if format != FORMAT_NUMBER {
        return Err(r.error_at(format_at, BeamErrorKind::UnsupportedFormat(format)));
    }
    let max_opcode = r.u32()?;
    let label_count = r.u32()?;
    let function_count = r.u32()?;
    r.bytes(header_size - 16)?;
    let code_offset = r.offset();
    Ok(CodeChunk {
        format,
        max_opcode,
        label_count,
        function_count,
        code_offset,
        code: r.rest().to_vec(),
    })
}
