//! The `LitT` chunk: the module's literal terms, zlib-compressed, each kept
//! here as its raw External Term Format bytes (the ETF decoder turns them
//! into terms).
//!
//! ```text
//! LitT
//! 4     uncompressed size in bytes, big-endian u32 (0: the rest is not compressed)
//! ...   zlib stream of the table below
//!
//! table (after inflating)
//! 4     count, big-endian u32
//! then count times:
//!   4     size in bytes, big-endian u32
//!   size  the literal in External Term Format (starting with 131)
//! ```
//!
//! The declared size is untrusted: it must be at most
//! [`MAX_LITERAL_TABLE_SIZE`], the output buffer grows only as data actually
//! inflates, and inflating past the declared size is an error.

use std::io::Read;

use flate2::read::ZlibDecoder;

use super::container::RawChunk;
use super::error::{BeamError, BeamErrorKind};
use super::reader::Reader;

/// The largest uncompressed literal table accepted: 256 MiB.
pub const MAX_LITERAL_TABLE_SIZE: u64 = 256 * 1024 * 1024;

/// The module's literals, each as raw ETF bytes, in table order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LiteralTable {
    /// Literal `i` is `literals[i]`.
    pub literals: Vec<Vec<u8>>,
}

impl LiteralTable {
    /// The raw ETF bytes of literal `index`.
    pub fn get(&self, index: u32) -> Option<&[u8]> {
        self.literals.get(index as usize).map(Vec::as_slice)
    }

    /// Number of literals.
    pub fn len(&self) -> usize {
        self.literals.len()
    }

    /// True when there is no literal.
    pub fn is_empty(&self) -> bool {
        self.literals.is_empty()
    }
}

/// Parses a `LitT` chunk.
pub fn parse_literals(chunk: &RawChunk<'_>) -> Result<LiteralTable, BeamError> {
    let mut r = chunk.reader();
    let declared = u64::from(r.u32()?);
    let data_at = r.offset();
    let compressed = r.rest();
    if declared == 0 {
        return parse_table(Reader::new(compressed, data_at, Some(chunk.id)));
    }
    if declared > MAX_LITERAL_TABLE_SIZE {
        return Err(BeamError::new(
            Some(chunk.id),
            chunk.offset,
            BeamErrorKind::LiteralsTooLarge {
                declared,
                limit: MAX_LITERAL_TABLE_SIZE,
            },
        ));
    }
    // Read at most one byte more than declared, to detect overflow without
    // inflating an unbounded stream.
    let mut out = Vec::new();
    ZlibDecoder::new(compressed)
        .take(declared + 1)
        .read_to_end(&mut out)
        .map_err(|e| {
            BeamError::new(
                Some(chunk.id),
                data_at,
                BeamErrorKind::Inflate(e.to_string()),
            )
        })?;
    if out.len() as u64 > declared {
        return Err(BeamError::new(
            Some(chunk.id),
            data_at,
            BeamErrorKind::InflatesPastSize { declared },
        ));
    }
    // Offsets inside the inflated table are reported relative to the start
    // of the compressed data: there is no file offset for inflated bytes.
    parse_table(Reader::new(&out, data_at, Some(chunk.id)))
}

fn parse_table(mut r: Reader<'_>) -> Result<LiteralTable, BeamError> {
    let count = r.count("literals", 4)?;
    let mut literals = Vec::with_capacity(count);
    for _ in 0..count {
        let size = r.u32()? as usize;
        literals.push(r.bytes(size)?.to_vec());
    }
    Ok(LiteralTable { literals })
}
