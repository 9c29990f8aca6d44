//! The one error type of `.beam` parsing: what went wrong, in which chunk, at
//! which byte offset of the file.
//!
//! Every failure of the parser is a [`BeamError`]; none is a panic. The offset
//! is absolute (from the first byte of the file, the `F` of `FOR1`), so a hex
//! dump of the file shows the culprit at that address.

use std::fmt;

use super::container::ChunkId;

/// A `.beam` file could not be parsed: the chunk it happened in (or `None`
/// for the IFF header and chunk directory), the absolute byte offset, and
/// what was wrong.
///
/// Displays as `Code chunk at offset 0x1a4: unknown opcode 250`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BeamError {
    /// The chunk being parsed, or `None` for the container itself.
    pub chunk: Option<ChunkId>,
    /// Absolute byte offset in the file where the problem was found.
    pub offset: usize,
    /// What was wrong.
    pub kind: BeamErrorKind,
}

impl BeamError {
    /// An error in `chunk` (or the container, for `None`) at absolute `offset`.
    pub fn new(chunk: Option<ChunkId>, offset: usize, kind: BeamErrorKind) -> Self {
        BeamError {
            chunk,
            offset,
            kind,
        }
    }
}

impl fmt::Display for BeamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.chunk {
            Some(id) => write!(f, "{id} chunk at offset {:#x}: {}", self.offset, self.kind),
            None => write!(f, "file header at offset {:#x}: {}", self.offset, self.kind),
        }
    }
}

impl std::error::Error for BeamError {}

/// What was wrong with the input. Each variant reads as the tail of a
/// sentence that [`BeamError`]'s `Display` begins.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BeamErrorKind {
    /// Fewer bytes were left than the next field needs.
    #[error("truncated: needed {needed} bytes, {available} left")]
    Truncated {
        /// Bytes the field needs.
        needed: usize,
        /// Bytes left in the chunk (or file).
        available: usize,
    },
    /// The file does not start with `FOR1`.
    #[error("not an IFF file: magic is {0:02x?}, expected \"FOR1\"")]
    BadMagic([u8; 4]),
    /// The IFF form type is not `BEAM`.
    #[error("not a BEAM file: form type is {0:02x?}, expected \"BEAM\"")]
    NotBeam([u8; 4]),
    /// A size field points past the end of the data that contains it.
    #[error("size {size} runs past the end ({available} bytes left)")]
    PastEnd {
        /// The size that was declared.
        size: u64,
        /// Bytes that actually remain.
        available: usize,
    },
    /// The same chunk appears twice.
    #[error("duplicate chunk")]
    DuplicateChunk,
    /// A chunk every module must have is absent.
    #[error("missing required chunk {0}")]
    MissingChunk(ChunkId),
    /// A count cannot possibly be satisfied by the bytes that remain.
    #[error("absurd count {count} for {what} ({available} bytes left)")]
    AbsurdCount {
        /// What was being counted.
        what: &'static str,
        /// The declared count.
        count: u64,
        /// Bytes left to hold the items.
        available: usize,
    },
    /// A field holds a value outside its allowed range.
    #[error("invalid {what}: {value}")]
    BadValue {
        /// The field.
        what: &'static str,
        /// The value found.
        value: i64,
    },
    /// An index refers past the end of the table it indexes.
    #[error("{what} index {index} out of range (table has {len})")]
    BadIndex {
        /// The table.
        what: &'static str,
        /// The index found.
        index: u64,
        /// The table's length.
        len: usize,
    },
    /// A name is not valid UTF-8.
    #[error("{0} is not valid UTF-8")]
    BadUtf8(&'static str),
    /// The Code chunk's instruction-set version is not one this parser knows.
    #[error("unsupported instruction set version {0}")]
    UnsupportedFormat(u32),
    /// An opcode outside genop.tab's range.
    #[error("unknown opcode {0}")]
    UnknownOpcode(u8),
    /// The code ended without `int_code_end`.
    #[error("code ends without int_code_end")]
    MissingCodeEnd,
    /// An operand has a tag that is not allowed where it appears.
    #[error("unexpected operand tag {found} where {expected} was expected")]
    BadTag {
        /// What was expected, in words.
        expected: &'static str,
        /// The tag that was found (`u`, `i`, `a`, `x`, `y`, `f`, `h`, `z`).
        found: char,
    },
    /// An extended (`z`) operand of an unknown kind.
    #[error("unknown extended operand kind {0}")]
    BadExtended(u64),
    /// An untagged or register value does not fit its field.
    #[error("value too large for a {0} operand")]
    ValueTooLarge(&'static str),
    /// Operands nested (lists in lists) deeper than any compiler emits.
    #[error("operands nested too deeply")]
    TooDeep,
    /// The literal table declares an uncompressed size over the bound.
    #[error("uncompressed literal table of {declared} bytes exceeds the limit of {limit}")]
    LiteralsTooLarge {
        /// The declared uncompressed size.
        declared: u64,
        /// The limit.
        limit: u64,
    },
    /// The literal table inflates to more bytes than it declared.
    #[error("literal table inflates past its declared size of {declared} bytes")]
    InflatesPastSize {
        /// The declared uncompressed size.
        declared: u64,
    },
    /// zlib rejected the compressed literal table.
    #[error("corrupt compressed data: {0}")]
    Inflate(String),
}
