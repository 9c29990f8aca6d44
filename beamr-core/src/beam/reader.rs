//! A bounds-checked big-endian cursor over one chunk's bytes.
//!
//! Every read checks the bytes left and returns a [`BeamError`] naming the
//! chunk and the absolute file offset of the read; nothing here can panic.
//! [`Reader::count`] is the guard against allocating from untrusted counts:
//! a count is accepted only if `count * min_item_size` bytes remain.

use super::container::ChunkId;
use super::error::{BeamError, BeamErrorKind};

/// A cursor over `data`, which starts at absolute file offset `base` and
/// belongs to `chunk` (`None` for the container).
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    pos: usize,
    base: usize,
    chunk: Option<ChunkId>,
}

impl<'a> Reader<'a> {
    /// A reader over `data`, found at absolute offset `base` in the file.
    pub fn new(data: &'a [u8], base: usize, chunk: Option<ChunkId>) -> Self {
        Reader {
            data,
            pos: 0,
            base,
            chunk,
        }
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    /// True when every byte has been read.
    pub fn is_empty(&self) -> bool {
        self.remaining() == 0
    }

    /// The absolute file offset of the next byte.
    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    /// The chunk this reader reads.
    pub fn chunk(&self) -> Option<ChunkId> {
        self.chunk
    }

    /// An error of `kind` at the current offset.
    pub fn error(&self, kind: BeamErrorKind) -> BeamError {
        self.error_at(self.offset(), kind)
    }

    /// An error of `kind` at absolute offset `offset`.
    pub fn error_at(&self, offset: usize, kind: BeamErrorKind) -> BeamError {
        BeamError::new(self.chunk, offset, kind)
    }

    /// The next `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], BeamError> {
        if n > self.remaining() {
            return Err(self.error(BeamErrorKind::Truncated {
                needed: n,
                available: self.remaining(),
            }));
        }
        let out = &self.data[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// Everything not yet read.
    pub fn rest(&mut self) -> &'a [u8] {
        let out = &self.data[self.pos..];
        self.pos = self.data.len();
        out
    }

    /// The next `N` bytes as an array.
    pub fn array<const N: usize>(&mut self) -> Result<[u8; N], BeamError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.bytes(N)?);
        Ok(out)
    }

    /// One byte.
    pub fn u8(&mut self) -> Result<u8, BeamError> {
        Ok(self.array::<1>()?[0])
    }

    /// A big-endian `u16`.
    pub fn u16(&mut self) -> Result<u16, BeamError> {
        Ok(u16::from_be_bytes(self.array()?))
    }

    /// A big-endian `u32`.
    pub fn u32(&mut self) -> Result<u32, BeamError> {
        Ok(u32::from_be_bytes(self.array()?))
    }

    /// A big-endian `i32`.
    pub fn i32(&mut self) -> Result<i32, BeamError> {
        Ok(i32::from_be_bytes(self.array()?))
    }

    /// A big-endian `i64`.
    pub fn i64(&mut self) -> Result<i64, BeamError> {
        Ok(i64::from_be_bytes(self.array()?))
    }

    /// A big-endian `u32` count of items of at least `min_item_size` bytes
    /// each, accepted only if that many bytes remain: the bound that makes
    /// `Vec::with_capacity(count)` safe.
    pub fn count(&mut self, what: &'static str, min_item_size: usize) -> Result<usize, BeamError> {
        let at = self.offset();
        let count = self.u32()?;
        self.check_count(at, what, u64::from(count), min_item_size)
    }

    /// Checks an already-read `count` against the bytes left, as
    /// [`Reader::count`] does; `at` is where the count was read.
    pub fn check_count(
        &self,
        at: usize,
        what: &'static str,
        count: u64,
        min_item_size: usize,
    ) -> Result<usize, BeamError> {
        let need = count.saturating_mul(min_item_size.max(1) as u64);
        if need > self.remaining() as u64 {
            return Err(self.error_at(
                at,
                BeamErrorKind::AbsurdCount {
                    what,
                    count,
                    available: self.remaining(),
                },
            ));
        }
        // `need` fits in the remaining length, so `count` fits in usize.
        Ok(count as usize)
    }
}
