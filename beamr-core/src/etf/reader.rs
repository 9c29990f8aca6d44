//! [`Reader`]: a bounds-checked cursor over the input bytes. Every read
//! either returns the bytes or an [`EtfError`] at the cursor's offset.

use super::error::{EtfError, EtfErrorKind};

/// A cursor over encoded bytes.
#[derive(Clone)]
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    /// True when `buf` is the inflated payload of a compressed term (errors
    /// say so).
    in_compressed: bool,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `buf`.
    pub(crate) fn new(buf: &'a [u8], in_compressed: bool) -> Reader<'a> {
        Reader {
            buf,
            pos: 0,
            in_compressed,
        }
    }

    /// The offset of the next byte.
    #[inline]
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// Moves the cursor to `pos` (an offset this reader returned before).
    #[inline]
    pub(crate) fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.buf.len());
    }

    /// The bytes from offset `start` (an offset this reader returned
    /// before) up to the cursor.
    #[inline]
    pub(crate) fn slice_from(&self, start: usize) -> &'a [u8] {
        &self.buf[start.min(self.pos)..self.pos]
    }

    /// Bytes left after the cursor.
    #[inline]
    pub(crate) fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    /// An error of `kind` at offset `at`.
    #[cold]
    pub(crate) fn error_at(&self, kind: EtfErrorKind, at: usize) -> EtfError {
        EtfError {
            kind,
            offset: at,
            in_compressed: self.in_compressed,
        }
    }

    /// An error of `kind` at the cursor.
    #[cold]
    pub(crate) fn error(&self, kind: EtfErrorKind) -> EtfError {
        self.error_at(kind, self.pos)
    }

    #[cold]
    fn truncated(&self, needed: usize) -> EtfError {
        self.error(EtfErrorKind::Truncated {
            needed,
            available: self.remaining(),
        })
    }

    /// The next `n` bytes.
    #[inline]
    pub(crate) fn bytes(&mut self, n: usize) -> Result<&'a [u8], EtfError> {
        if n > self.remaining() {
            return Err(self.truncated(n));
        }
        let out = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    /// The next `N` bytes as an array.
    #[inline]
    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N], EtfError> {
        let bytes = self.bytes(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    /// One byte.
    #[inline]
    pub(crate) fn u8(&mut self) -> Result<u8, EtfError> {
        match self.buf.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(self.truncated(1)),
        }
    }

    /// A big-endian u16.
    #[inline]
    pub(crate) fn u16(&mut self) -> Result<u16, EtfError> {
        Ok(u16::from_be_bytes(self.array()?))
    }

    /// A big-endian u32.
    #[inline]
    pub(crate) fn u32(&mut self) -> Result<u32, EtfError> {
        Ok(u32::from_be_bytes(self.array()?))
    }

    /// A big-endian u64.
    #[inline]
    pub(crate) fn u64(&mut self) -> Result<u64, EtfError> {
        Ok(u64::from_be_bytes(self.array()?))
    }

    /// Checks that a count of `count` items, each at least `min_bytes` long
    /// (plus `extra` more bytes), can fit in the bytes left, so no caller
    /// allocates from a count the input cannot back.
    #[inline]
    pub(crate) fn check_count(
        &self,
        count: u64,
        min_bytes: u64,
        extra: u64,
        at: usize,
    ) -> Result<(), EtfError> {
        let need = count.saturating_mul(min_bytes).saturating_add(extra);
        if need > self.remaining() as u64 {
            return Err(self.error_at(
                EtfErrorKind::CountTooLarge {
                    count,
                    available: self.remaining(),
                },
                at,
            ));
        }
        Ok(())
    }
}
