//! Binaries and bitstrings: heap binaries, reference-counted off-heap
//! binaries, sub-binaries, and the view that reads any of them.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::header::Subtag;
use super::word::Term;

/// Bytes held by live off-heap binaries, their headers included: what
/// `erlang:memory(binary)` reports. One relaxed add per allocation and one
/// subtraction per free; read only for statistics.
static OFF_HEAP_BYTES: AtomicUsize = AtomicUsize::new(0);

/// Bytes held by all live off-heap binaries (their storage and headers).
pub fn off_heap_bytes() -> usize {
    OFF_HEAP_BYTES.load(Ordering::Relaxed)
}

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
///
/// # Writable binaries
///
/// A binary made by [`OffHeapBinary::writable`] has spare capacity after its
/// bytes, so that `<<Bin/binary, ...>>` can extend it in place (the BEAM's
/// `PB_IS_WRITABLE` optimisation):
///
/// ```text
///  data [ len bytes, seen by terms | capacity - len spare bytes ]
/// ```
///
/// Every term over it is a sub-binary whose range lies within the first
/// `len` bytes, which never change. [`OffHeapBinary::append_in_place`]
/// writes only spare bytes, then grows `len`, so no existing term sees a
/// change. Only the owner may append: the first [`OffHeapBinary::retain`]
/// (another heap getting a reference) makes the binary read-only for good,
/// as the BEAM's `erts_emasculate_writable_binary` does when a writable
/// binary is copied.
#[derive(Debug)]
pub struct OffHeapBinary {
    refc: AtomicUsize,
    /// Start of an allocation of `capacity` bytes (a leaked `Vec<u8>`).
    data: *mut u8,
    capacity: usize,
    /// Bytes initialised and visible; grows only by `append_in_place`.
    len: AtomicUsize,
    /// True while only the creating heap refers to the binary.
    writable: AtomicBool,
}

// SAFETY: the bytes below `len` are never written after they become
// visible; bytes above it are written only by the owner of a writable
// binary (see `append_in_place`); counters are atomic.
unsafe impl Send for OffHeapBinary {}
// SAFETY: as above.
unsafe impl Sync for OffHeapBinary {}

/// `len` zeroed bytes for a binary about to be written, or `None` when the
/// allocator cannot give that many: a program asked for more memory than
/// there is, and its builder raises `system_limit` where erts aborts the
/// whole runtime ("Cannot allocate N bytes of memory").
pub fn try_zeroed_bytes(len: usize) -> Option<Vec<u8>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).ok()?;
    v.resize(len, 0);
    Some(v)
}

impl OffHeapBinary {
    /// Allocates an off-heap binary holding `bytes`, with one reference.
    pub fn new(bytes: Box<[u8]>) -> *const OffHeapBinary {
        Self::from_vec(bytes.into_vec(), false)
    }

    /// Allocates a writable off-heap binary holding `bytes`, with room for
    /// at least `capacity` bytes in all, and one reference.
    pub fn writable(bytes: &[u8], capacity: usize) -> *const OffHeapBinary {
        let mut v = Vec::with_capacity(capacity.max(bytes.len()));
        v.extend_from_slice(bytes);
        Self::from_vec(v, true)
    }

    /// As [`OffHeapBinary::writable`], or `None` when the allocator cannot
    /// give `capacity` bytes (a program asked for more memory than there is).
    pub fn try_writable(bytes: &[u8], capacity: usize) -> Option<*const OffHeapBinary> {
        let mut v = Vec::new();
        v.try_reserve_exact(capacity.max(bytes.len())).ok()?;
        v.extend_from_slice(bytes);
        Some(Self::from_vec(v, true))
    }

    fn from_vec(v: Vec<u8>, writable: bool) -> *const OffHeapBinary {
        let mut v = std::mem::ManuallyDrop::new(v);
        OFF_HEAP_BYTES.fetch_add(
            v.capacity() + std::mem::size_of::<OffHeapBinary>(),
            Ordering::Relaxed,
        );
        Box::into_raw(Box::new(OffHeapBinary {
            refc: AtomicUsize::new(1),
            data: v.as_mut_ptr(),
            capacity: v.capacity(),
            len: AtomicUsize::new(v.len()),
            writable: AtomicBool::new(writable),
        }))
    }

    /// The stored bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        let len = self.len.load(Ordering::Relaxed);
        // SAFETY: the first `len` bytes are initialised and never written again.
        unsafe { std::slice::from_raw_parts(self.data, len) }
    }

    /// Bytes allocated in all (at least `bytes().len()`).
    #[inline]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// True while the binary may still be extended in place.
    #[inline]
    pub fn is_writable(&self) -> bool {
        self.writable.load(Ordering::Relaxed)
    }

    /// Extends a writable binary whose length is exactly `at` by `extra`
    /// bytes, filled by `fill` (given the new bytes, zeroed). Returns false,
    /// changing nothing, when the binary is not writable, its length is not
    /// `at`, or the spare capacity is too small.
    ///
    /// # Safety
    ///
    /// The calling thread must own the heap that holds the binary's one
    /// reference (a writable binary has exactly one holder).
    pub unsafe fn append_in_place(
        &self,
        at: usize,
        extra: usize,
        fill: impl FnOnce(&mut [u8]),
    ) -> bool {
        if !self.is_writable()
            || self.len.load(Ordering::Relaxed) != at
            || self.capacity - at < extra
        {
            return false;
        }
        // SAFETY: bytes at..at+extra are inside the allocation and above
        // `len`, so no term or slice refers to them; the caller is the only
        // holder, so no other thread writes them.
        let spare = unsafe {
            let p = self.data.add(at);
            std::ptr::write_bytes(p, 0, extra);
            std::slice::from_raw_parts_mut(p, extra)
        };
        fill(spare);
        self.len.store(at + extra, Ordering::Relaxed);
        true
    }

    /// The spare bytes of a writable binary whose length is exactly `at`,
    /// when there are at least `room` of them: a pointer to the first, for
    /// a writer that puts whole bytes and then calls
    /// [`OffHeapBinary::commit_append`]. `None` when the binary is not
    /// writable, its length is not `at`, or fewer than `room` bytes are
    /// spare. The bytes are not initialised; writing them changes nothing a
    /// term can see until the commit. [`OffHeapBinary::append_in_place`]
    /// without the closure and the zeroing.
    ///
    /// # Safety
    ///
    /// As for [`OffHeapBinary::append_in_place`]: the calling thread must
    /// own the heap that holds the binary's one reference, and write only
    /// the `room` bytes from the pointer.
    #[inline(always)]
    pub unsafe fn spare_room(&self, at: usize, room: usize) -> Option<*mut u8> {
        if !self.is_writable()
            || self.len.load(Ordering::Relaxed) != at
            || self.capacity - at < room
        {
            return None;
        }
        // SAFETY: bytes at..at+room are inside the allocation and above
        // `len`, so no term or slice refers to them; the caller is the only
        // holder, so no other thread writes them.
        Some(unsafe { self.data.add(at) })
    }

    /// Makes the `extra` bytes written from [`OffHeapBinary::spare_room`]'s
    /// pointer part of the binary, whose length is exactly `at`.
    ///
    /// # Safety
    ///
    /// `spare_room(at, room)` returned a pointer, with `extra <= room`; the
    /// caller has written the `extra` bytes from it since, and still owns
    /// the binary's one reference.
    #[inline(always)]
    pub unsafe fn commit_append(&self, at: usize, extra: usize) {
        debug_assert!(self.len.load(Ordering::Relaxed) == at && extra <= self.capacity - at);
        self.len.store(at + extra, Ordering::Relaxed);
    }

    /// The current reference count (for tests and statistics).
    pub fn ref_count(&self) -> usize {
        self.refc.load(Ordering::Acquire)
    }

    /// Takes one more reference.
    #[inline]
    pub fn retain(&self) {
        // A second holder: the binary can no longer change in place.
        if self.writable.load(Ordering::Relaxed) {
            self.writable.store(false, Ordering::Relaxed);
        }
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

impl Drop for OffHeapBinary {
    fn drop(&mut self) {
        OFF_HEAP_BYTES.fetch_sub(
            self.capacity + std::mem::size_of::<OffHeapBinary>(),
            Ordering::Relaxed,
        );
        // SAFETY: data and capacity come from a Vec<u8> leaked in `from_vec`.
        drop(unsafe { Vec::from_raw_parts(self.data, 0, self.capacity) });
    }
}

/// A read-only view of a binary or bitstring: a bit range of some bytes.
#[derive(Copy, Clone, Debug)]
pub struct BinaryView<'a> {
    /// The underlying storage (a heap binary's or off-heap binary's bytes).
    pub storage: &'a [u8],
    /// Offset in bits of the first bit in `storage`.
    pub bit_offset: usize,
    /// Size in bits.
    pub bit_size: usize,
}

impl<'a> BinaryView<'a> {
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
    pub fn as_bytes(&self) -> Option<&'a [u8]> {
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
    /// A view of a binary or bitstring of any representation, borrowed from
    /// this term (see [`Term`]'s validity rule).
    #[inline]
    pub fn as_binary(&self) -> Option<BinaryView<'_>> {
        self.binary_parts()
    }

    /// [`Term::as_binary`] for this crate's own traversals.
    ///
    /// The header's subtag bits decide the representation (no decoding
    /// into a [`Subtag`]); a sub-binary's `orig` is always a heap or refc
    /// binary ([`Heap::sub_binary`](crate::heap::Heap::sub_binary) flattens
    /// slices of slices), so it takes one more header read, not a recursion.
    #[inline]
    pub(crate) fn binary_parts(self) -> Option<BinaryView<'static>> {
        if let Some((orig, bit_offset, bit_size)) = self.as_sub_binary() {
            let storage = orig.whole_binary_storage()?;
            return Some(BinaryView {
                storage,
                bit_offset,
                bit_size,
            });
        }
        let storage = self.whole_binary_storage()?;
        Some(BinaryView {
            storage,
            bit_offset: 0,
            bit_size: storage.len() * 8,
        })
    }

    /// The bytes of a heap or refc binary (not a sub-binary): the storage a
    /// sub-binary or a match context reads, from its `orig` word.
    #[inline]
    pub fn binary_storage(&self) -> Option<&[u8]> {
        self.whole_binary_storage()
    }

    /// [`Term::binary_storage`] for this crate's own traversals.
    #[inline(always)]
    fn whole_binary_storage(self) -> Option<&'static [u8]> {
        let subtag = self.boxed_subtag_bits()?;
        if subtag == Subtag::RefcBin as u64 {
            // SAFETY: a refc binary object is `[hdr, byte_size, ptr]`.
            let bin = unsafe { self.ptr().add(2).read() } as *const OffHeapBinary;
            // SAFETY: a refc binary object holds a reference to a live
            // off-heap binary for as long as the object is alive.
            Some(unsafe { (*bin).bytes() })
        } else if subtag == Subtag::HeapBin as u64 {
            // SAFETY: a heap binary is `[hdr, byte_size, data ..]`: it stores
            // `byte_size` bytes in the words after its size word, alive as
            // long as the term.
            Some(unsafe {
                let size = self.ptr().add(1).read() as usize;
                std::slice::from_raw_parts(self.ptr().add(2) as *const u8, size)
            })
        } else {
            None
        }
    }

    /// True for a binary or bitstring.
    #[inline]
    pub fn is_bitstring(self) -> bool {
        matches!(
            self.subtag(),
            Some(Subtag::HeapBin | Subtag::RefcBin | Subtag::SubBin)
        )
    }

    /// The parts of a sub-binary: the heap or refc binary it slices, and
    /// its bit offset and bit size within that binary.
    #[inline(always)]
    pub fn as_sub_binary(self) -> Option<(Term, usize, usize)> {
        if self.is_boxed_with(Subtag::SubBin) {
            // SAFETY: a sub-binary is `[hdr, bit_size, bit_offset, orig]`,
            // alive as long as the term.
            let w = |i: usize| unsafe { self.ptr().add(1 + i).read() };
            Some((Term::from_word(w(2)), w(1) as usize, w(0) as usize))
        } else {
            None
        }
    }

    /// The off-heap binary a refc binary object refers to.
    #[inline(always)]
    pub fn as_off_heap_binary(self) -> Option<*const OffHeapBinary> {
        if self.is_boxed_with(Subtag::RefcBin) {
            // SAFETY: a refc binary object is `[hdr, byte_size, ptr]`,
            // alive as long as the term.
            Some(unsafe { self.ptr().add(2).read() } as *const OffHeapBinary)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod writable_tests {
    use super::OffHeapBinary;

    #[test]
    fn appends_in_place_only_at_the_end_and_until_shared() {
        let bin = OffHeapBinary::writable(b"ab", 8);
        // SAFETY: `bin` was just allocated and is released once at the end.
        let b = unsafe { &*bin };
        assert!(b.is_writable() && b.capacity() >= 8);
        // SAFETY: this thread holds the only reference.
        assert!(unsafe { b.append_in_place(2, 2, |s| s.copy_from_slice(b"cd")) });
        assert_eq!(b.bytes(), b"abcd");
        // Not the latest length: refused.
        // SAFETY: as above.
        assert!(!unsafe { b.append_in_place(2, 1, |s| s[0] = b'x') });
        // Too large for the spare capacity: refused.
        // SAFETY: as above.
        assert!(!unsafe { b.append_in_place(4, b.capacity(), |_| ()) });
        b.retain();
        assert!(!b.is_writable());
        // SAFETY: as above (shared now, so refused).
        assert!(!unsafe { b.append_in_place(4, 1, |s| s[0] = b'e') });
        assert_eq!(b.bytes(), b"abcd");
        // SAFETY: two references taken (new + retain), released once each.
        unsafe {
            OffHeapBinary::release(bin);
            OffHeapBinary::release(bin);
        }
    }
}
