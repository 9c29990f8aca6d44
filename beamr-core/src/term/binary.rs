//! Binaries and bitstrings: heap binaries, reference-counted off-heap
//! binaries, sub-binaries, and the view that reads any of them.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::header::Subtag;
use super::word::Term;

/// Binaries of at most this many bytes are stored on the process heap;
/// larger ones off the heap behind a reference count (the BEAM's
/// `ERL_ONHEAP_BIN_LIMIT`).
pub const HEAP_BIN_LIMIT: usize = 64;

/// The bytes of a large binary, shared between heaps by reference count.
///
/// Created with a count of one, owned by the heap that allocated the
/// [`Subtag::RefcBin`] object pointing to it. Every other heap or literal
/// area that gets a copy of that object takes a reference
/// ([`OffHeapBinary::retain`]); a collection that finds the object dead
/// releases it ([`OffHeapBinary::release`]); the last release frees it.
#[derive(Debug)]
pub struct OffHeapBinary {
    refc: AtomicUsize,
    bytes: Box<[u8]>,
}

impl OffHeapBinary {
    /// Allocates an off-heap binary holding `bytes`, with one reference.
    pub fn new(bytes: Box<[u8]>) -> *const OffHeapBinary {
        Box::into_raw(Box::new(OffHeapBinary {
            refc: AtomicUsize::new(1),
            bytes,
        }))
    }

    /// The stored bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// The current reference count (for tests and statistics).
    pub fn ref_count(&self) -> usize {
        self.refc.load(Ordering::Acquire)
    }

    /// Takes one more reference.
    #[inline]
    pub fn retain(&self) {
        // Relaxed suffices for an increment: the caller already holds a
        // reference, so the binary cannot be freed concurrently (as Arc).
        self.refc.fetch_add(1, Ordering::Relaxed);
    }

    /// Drops one reference, freeing the binary when it was the last.
    ///
    /// # Safety
    ///
    /// `this` must come from [`OffHeapBinary::new`], and the caller must own
    /// one of its references, which it may not use afterwards.
    pub unsafe fn release(this: *const OffHeapBinary) {
        // SAFETY: the caller owns a reference, so `this` is alive.
        let previous = unsafe { (*this).refc.fetch_sub(1, Ordering::Release) };
        if previous == 1 {
            // Synchronise with every earlier release before freeing (as Arc).
            std::sync::atomic::fence(Ordering::Acquire);
            // SAFETY: this was the last reference; `this` came from Box::into_raw.
            drop(unsafe { Box::from_raw(this as *mut OffHeapBinary) });
        }
    }
}

/// A read-only view of a binary or bitstring: a bit range of some bytes.
#[derive(Copy, Clone, Debug)]
pub struct BinaryView {
    /// The underlying storage (a heap binary's or off-heap binary's bytes).
    pub storage: &'static [u8],
    /// Offset in bits of the first bit in `storage`.
    pub bit_offset: usize,
    /// Size in bits.
    pub bit_size: usize,
}

impl BinaryView {
    /// True if the size is a whole number of bytes (a binary, not just a bitstring).
    #[inline]
    pub fn is_binary(&self) -> bool {
        self.bit_size % 8 == 0
    }

    /// The size in whole bytes (rounded down).
    #[inline]
    pub fn byte_size(&self) -> usize {
        self.bit_size / 8
    }

    /// The bytes, without copying, when the view starts on a byte boundary
    /// and is a whole number of bytes.
    #[inline]
    pub fn as_bytes(&self) -> Option<&'static [u8]> {
        if self.bit_offset % 8 == 0 && self.bit_size % 8 == 0 {
            let start = self.bit_offset / 8;
            Some(&self.storage[start..start + self.bit_size / 8])
        } else {
            None
        }
    }

    /// Copies the bits out: whole bytes, then a last partial byte (its bits in
    /// the high end) when the size is not a multiple of 8.
    pub fn to_vec(&self) -> Vec<u8> {
        if let Some(bytes) = self.as_bytes() {
            return bytes.to_vec();
        }
        let mut out = Vec::with_capacity(self.bit_size.div_ceil(8));
        let mut bit = self.bit_offset;
        let end = self.bit_offset + self.bit_size;
        while bit < end {
            let take = (end - bit).min(8);
            let mut byte = 0u16;
            for i in 0..take {
                let b = bit + i;
                let set = (self.storage[b / 8] >> (7 - b % 8)) & 1;
                byte |= (set as u16) << (7 - i);
            }
            out.push(byte as u8);
            bit += take;
        }
        out
    }

    /// Number of bits in the last partial byte (0 when the size is whole bytes).
    #[inline]
    pub fn trailing_bits(&self) -> usize {
        self.bit_size % 8
    }
}

impl Term {
    /// A view of a binary or bitstring of any representation.
    pub fn as_binary(self) -> Option<BinaryView> {
        let words = match self.subtag()? {
            Subtag::HeapBin | Subtag::RefcBin => self.boxed_words(),
            Subtag::SubBin => {
                let words = self.boxed_words();
                let (bit_size, bit_offset) = (words[0] as usize, words[1] as usize);
                let orig = Term::from_raw(words[2]).as_binary()?;
                return Some(BinaryView {
                    storage: orig.storage,
                    bit_offset: orig.bit_offset + bit_offset,
                    bit_size,
                });
            }
            _ => return None,
        };
        let storage = match self.subtag()? {
            Subtag::HeapBin => {
                let size = words[0] as usize;
                // SAFETY: a heap binary stores `size` bytes in the words after
                // its size word, alive as long as the term.
                unsafe { std::slice::from_raw_parts(words.as_ptr().add(1) as *const u8, size) }
            }
            _ => {
                let bin = words[1] as *const OffHeapBinary;
                // SAFETY: a refc binary object holds a reference to a live
                // off-heap binary for as long as the object is alive.
                unsafe { (*bin).bytes() }
            }
        };
        Some(BinaryView {
            storage,
            bit_offset: 0,
            bit_size: storage.len() * 8,
        })
    }

    /// True for a binary or bitstring.
    #[inline]
    pub fn is_bitstring(self) -> bool {
        matches!(
            self.subtag(),
            Some(Subtag::HeapBin | Subtag::RefcBin | Subtag::SubBin)
        )
    }

    /// The off-heap binary a refc binary object refers to.
    pub fn as_off_heap_binary(self) -> Option<*const OffHeapBinary> {
        if self.is_boxed_with(Subtag::RefcBin) {
            Some(self.boxed_words()[1] as *const OffHeapBinary)
        } else {
            None
        }
    }
}
