//! The IFF container around a module's chunks.
//!
//! ```text
//! offset  size  field
//! 0       4     "FOR1"
//! 4       4     form size in bytes, big-endian: everything after this field
//! 8       4     "BEAM"
//! 12      ...   chunks, each:
//!                 4     chunk id, four ASCII bytes ("AtU8", "Code", ...)
//!                 4     chunk size in bytes, big-endian, not counting padding
//!                 size  chunk data
//!                 0..3  zero padding up to the next multiple of 4 bytes
//! ```
//!
//! As OTP's loader does, a chunk whose data or padding runs past the form's
//! end is an error, and bytes after the form are ignored.

use std::fmt;

use super::error::{BeamError, BeamErrorKind};
use super::reader::Reader;

/// A four-byte chunk identifier such as `AtU8` or `Code`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChunkId(pub [u8; 4]);

impl ChunkId {
    /// `AtU8`: atoms as UTF-8.
    pub const ATU8: ChunkId = ChunkId(*b"AtU8");
    /// `Atom`: atoms as Latin-1 (OTP 20 and earlier).
    pub const ATOM: ChunkId = ChunkId(*b"Atom");
    /// `Code`: the instructions.
    pub const CODE: ChunkId = ChunkId(*b"Code");
    /// `StrT`: the string table used by binary instructions.
    pub const STRT: ChunkId = ChunkId(*b"StrT");
    /// `ImpT`: imported functions.
    pub const IMPT: ChunkId = ChunkId(*b"ImpT");
    /// `ExpT`: exported functions.
    pub const EXPT: ChunkId = ChunkId(*b"ExpT");
    /// `LocT`: local functions.
    pub const LOCT: ChunkId = ChunkId(*b"LocT");
    /// `FunT`: the lambda table.
    pub const FUNT: ChunkId = ChunkId(*b"FunT");
    /// `LitT`: the compressed literal table.
    pub const LITT: ChunkId = ChunkId(*b"LitT");
    /// `Line`: line-number information.
    pub const LINE: ChunkId = ChunkId(*b"Line");
    /// `Type`: operand types for typed registers.
    pub const TYPE: ChunkId = ChunkId(*b"Type");
    /// `Attr`: module attributes (an ETF blob).
    pub const ATTR: ChunkId = ChunkId(*b"Attr");
    /// `CInf`: compilation information (an ETF blob).
    pub const CINF: ChunkId = ChunkId(*b"CInf");
    /// `Meta`: metadata (an ETF blob).
    pub const META: ChunkId = ChunkId(*b"Meta");
    /// `Dbgi`: debug information (abstract code).
    pub const DBGI: ChunkId = ChunkId(*b"Dbgi");
    /// `Recs`: native record definitions (OTP 29).
    pub const RECS: ChunkId = ChunkId(*b"Recs");
    /// `Docs`: documentation (EEP-48).
    pub const DOCS: ChunkId = ChunkId(*b"Docs");
}

impl fmt::Display for ChunkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in &self.0 {
            if b.is_ascii_graphic() || b == b' ' {
                write!(f, "{}", b as char)?;
            } else {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for ChunkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ChunkId(\"{self}\")")
    }
}

/// One chunk as found in the container: its id, the absolute offset of its
/// first data byte, and its data (padding excluded).
#[derive(Debug, Clone, Copy)]
pub struct RawChunk<'a> {
    /// The chunk's identifier.
    pub id: ChunkId,
    /// Absolute file offset of the first data byte.
    pub offset: usize,
    /// The chunk's data, without padding.
    pub data: &'a [u8],
}

impl<'a> RawChunk<'a> {
    /// A reader over this chunk's data that reports errors in this chunk.
    pub fn reader(&self) -> Reader<'a> {
        Reader::new(self.data, self.offset, Some(self.id))
    }
}

/// Splits a whole `.beam` file into its chunks, in file order.
pub fn split_chunks(file: &[u8]) -> Result<Vec<RawChunk<'_>>, BeamError> {
    let mut r = Reader::new(file, 0, None);
    let magic = r.array::<4>()?;
    if &magic != b"FOR1" {
        return Err(r.error_at(0, BeamErrorKind::BadMagic(magic)));
    }
    let size_at = r.offset();
    let form_size = r.u32()? as usize;
    if form_size > r.remaining() {
        return Err(r.error_at(
            size_at,
            BeamErrorKind::PastEnd {
                size: form_size as u64,
                available: r.remaining(),
            },
        ));
    }
    let mut form = Reader::new(r.bytes(form_size)?, r.offset() - form_size, None);
    let form_type = form.array::<4>()?;
    if &form_type != b"BEAM" {
        return Err(form.error_at(8, BeamErrorKind::NotBeam(form_type)));
    }
    // Each chunk takes at least its 8-byte header.
    let mut chunks = Vec::with_capacity(form.remaining() / 8);
    while !form.is_empty() {
        let id = ChunkId(form.array::<4>()?);
        let size_at = form.offset();
        let size = form.u32()? as usize;
        let padded = size.div_ceil(4) * 4;
        if padded > form.remaining() {
            return Err(BeamError::new(
                Some(id),
                size_at,
                BeamErrorKind::PastEnd {
                    size: size as u64,
                    available: form.remaining(),
                },
            ));
        }
        let offset = form.offset();
        let data = form.bytes(size)?;
        form.bytes(padded - size)?;
        chunks.push(RawChunk { id, offset, data });
    }
    Ok(chunks)
}
