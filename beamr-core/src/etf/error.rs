//! [`EtfError`]: why a byte string is not a valid encoded term, and where.
//!
//! Every failure of the decoder is an `EtfError`; none is a panic. The offset
//! counts from the first byte given to the decoder (the version byte), except
//! inside a compressed term, where it counts from the first byte of the
//! inflated data ([`EtfError::in_compressed`] says which).

use std::fmt;

/// A byte string could not be decoded: what was wrong and at which byte.
///
/// Displays as `byte 17: unknown tag 200` (or `byte 17 of the inflated
/// data: ...` inside a compressed term).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EtfError {
    /// What was wrong.
    pub kind: EtfErrorKind,
    /// Byte offset where the problem was found.
    pub offset: usize,
    /// True if `offset` is into the inflated payload of a compressed term
    /// rather than into the input.
    pub in_compressed: bool,
}

impl EtfError {
    /// An error at `offset` of the input.
    pub fn new(kind: EtfErrorKind, offset: usize) -> EtfError {
        EtfError {
            kind,
            offset,
            in_compressed: false,
        }
    }
}

impl fmt::Display for EtfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.in_compressed {
            write!(
                f,
                "byte {} of the inflated data: {}",
                self.offset, self.kind
            )
        } else {
            write!(f, "byte {}: {}", self.offset, self.kind)
        }
    }
}

impl std::error::Error for EtfError {}

/// What was wrong with the input. Each variant reads as the tail of the
/// sentence [`EtfError`]'s `Display` begins.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EtfErrorKind {
    /// Fewer bytes were left than the next field needs.
    #[error("truncated: needed {needed} bytes, {available} left")]
    Truncated {
        /// Bytes the field needs.
        needed: usize,
        /// Bytes left in the input.
        available: usize,
    },
    /// The first byte is not the version byte 131.
    #[error("bad version byte {0} (expected 131)")]
    BadVersion(u8),
    /// A tag byte that starts no term.
    #[error("unknown tag {0}")]
    UnknownTag(u8),
    /// A tag that is valid elsewhere but not where it was found (a pid's node
    /// that is not an atom, say).
    #[error("expected {expected}, found tag {found}")]
    UnexpectedTag {
        /// What the format requires here.
        expected: &'static str,
        /// The tag found instead.
        found: u8,
    },
    /// An atom name longer than 255 characters.
    #[error("atom of {0} characters exceeds 255")]
    AtomTooLong(usize),
    /// A UTF-8 atom whose bytes are not UTF-8.
    #[error("atom text is not valid UTF-8")]
    InvalidUtf8,
    /// The atom table has no room for a new atom (`system_limit`).
    #[error("the atom table is full")]
    AtomTableFull,
    /// Safe decoding met an atom that does not exist yet.
    #[error("atom {0:?} does not exist (safe decoding creates no atoms)")]
    UnsafeAtom(String),
    /// A count (of elements, bytes, digits) larger than the input could hold.
    #[error("count {count} exceeds the {available} bytes left")]
    CountTooLarge {
        /// The count read.
        count: u64,
        /// Bytes left in the input after it.
        available: usize,
    },
    /// Terms nested deeper than the decoder's limit.
    #[error("terms nested deeper than {0} levels")]
    TooDeep(usize),
    /// An old-style float whose text is not a number.
    #[error("float text {0:?} is not a number")]
    BadFloatText(String),
    /// A float that is infinite or NaN (Erlang has neither).
    #[error("float is not finite")]
    NonFiniteFloat,
    /// A bitstring whose bits-in-last-byte field is out of range.
    #[error("bitstring of {bytes} bytes with {bits} bits in its last byte")]
    BadBitCount {
        /// The byte count.
        bytes: u32,
        /// The bits field (1..=8 when `bytes` > 0, 0 when it is 0).
        bits: u8,
    },
    /// A valid encoding of something beamr cannot represent. Nothing
    /// produces it at present; it is kept so that callers can tell such a
    /// case from bad input should one arise.
    #[error("unsupported: {0}")]
    Unsupported(&'static str),
    /// A map with the same key twice.
    #[error("map has a duplicate key")]
    DuplicateMapKey,
    /// A native record names one field twice.
    #[error("native record with a repeated field name")]
    DuplicateRecordField,
    /// A reference with more than five id words, or a local one with
    /// other than one to three.
    #[error("reference with {0} id words")]
    BadReferenceLength(u16),
    /// A pid, port or fun field out of the range the runtime can represent.
    #[error("{0} out of range")]
    OutOfRange(&'static str),
    /// The pre-R8 `FUN_EXT` (tag 117), which OTP refuses since OTP 23.
    #[error("obsolete FUN_EXT (tag 117), refused since OTP 23")]
    ObsoleteFun,
    /// A compressed term declaring more bytes than the limit or than its
    /// compressed data could inflate to.
    #[error("compressed term declares {declared} bytes, over the limit of {limit}")]
    InflateLimit {
        /// The declared uncompressed size.
        declared: u64,
        /// The most this input may inflate to.
        limit: u64,
    },
    /// The zlib stream inflated to a size other than the declared one.
    #[error("compressed term inflates to {actual} bytes, declared {declared}")]
    InflateSize {
        /// The declared uncompressed size.
        declared: u64,
        /// What it inflated to (the declared size + 1 when it went over).
        actual: u64,
    },
    /// The zlib stream is corrupt or truncated.
    #[error("corrupt zlib data: {0}")]
    BadZlib(String),
}
