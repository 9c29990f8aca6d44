//! The `Type` chunk: the types that typed-register operands (`{tr, Reg,
//! Index}`) refer to.
//!
//! ```text
//! 4   version, big-endian u32
//! 4   count, big-endian u32
//! ... entries; in version 1 (OTP 25) each is 18 bytes:
//!     2  type union bits, big-endian u16 (atom 1, bitstring 2, match state 4,
//!        cons 8, float 16, fun 32, integer 64, map 128, nil 256, pid 512,
//!        port 1024, reference 2048, tuple 4096)
//!     8  lower bound, big-endian i64
//!     8  upper bound, big-endian i64 (a range only if lower <= upper)
//! ```
//!
//! Other versions change the entry layout; their entries are kept raw.

use super::container::RawChunk;
use super::error::BeamError;

/// One entry of a version-1 type table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct TypeEntry {
    /// The union of basic types, as bits.
    pub bits: u16,
    /// Lower integer bound.
    pub min: i64,
    /// Upper integer bound; no range when `min > max`.
    pub max: i64,
}

/// The type table.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TypeTable {
    /// The format version.
    pub version: u32,
    /// Number of entries the chunk declares.
    pub count: u32,
    /// Decoded entries (version 1 only; empty otherwise).
    pub entries: Vec<TypeEntry>,
    /// The entry bytes after the header, undecoded.
    pub raw: Vec<u8>,
}

const V1_ENTRY_SIZE: usize = 18;

/// Parses a `Type` chunk.
pub fn parse_types(chunk: &RawChunk<'_>) -> Result<TypeTable, BeamError> {
    let mut r = chunk.reader();
    let version = r.u32()?;
    let count_at = r.offset();
    let count = r.u32()?;
    let raw = chunk.data.get(8..).unwrap_or_default().to_vec();
    let mut entries = Vec::new();
    if version == 1 {
        let n = r.check_count(count_at, "types", u64::from(count), V1_ENTRY_SIZE)?;
        entries.reserve(n);
        for _ in 0..n {
            entries.push(TypeEntry {
                bits: r.u16()?,
                min: r.i64()?,
                max: r.i64()?,
            });
        }
    } else {
        // Every entry of every version has at least its two type bytes.
        r.check_count(count_at, "types", u64::from(count), 2)?;
    }
    Ok(TypeTable {
        version,
        count,
        entries,
        raw,
    })
}
