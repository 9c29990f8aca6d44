//! [`Block`]: one contiguous, bump-allocated area of heap words.

use std::mem::MaybeUninit;
use std::ptr::NonNull;

/// A contiguous area of words with a bump pointer. The words never move
/// while the block lives, so terms may point into it.
///
/// The storage is not zeroed: only the words below the bump pointer are ever
/// read, and each of those was written when it was allocated. (A collector's
/// to-space is sized for the worst case, every word surviving; zeroing it
/// cost as much as the collection when little survives.)
///
/// A block may use only a prefix of its storage (its *capacity*): a young
/// generation that turned out much larger than its live data is shrunk that
/// way, and the next collection sizes its to-space from the smaller figure.
///
/// The storage is held as a raw pointer (a leaked `Box<[MaybeUninit<u64>]>`,
/// freed on drop), not as the `Box` itself: terms keep raw pointers into the
/// block and write through them, and a `Box` field would be reborrowed as a
/// shared reference every time the block is read, which under the aliasing
/// model (Stacked Borrows, checked by `cargo xtask miri`) takes away those
/// pointers' right to write.
pub(crate) struct Block {
    words: NonNull<[MaybeUninit<u64>]>,
    /// Usable words: all of `words`, or fewer after [`Block::shrink_to`].
    limit: usize,
    top: usize,
}

// SAFETY: a Block owns its storage exclusively, as the Box it was made from
// did; the raw pointer is what keeps it from being Send automatically, and
// moving the owner to another thread moves every access with it.
unsafe impl Send for Block {}

impl Drop for Block {
    fn drop(&mut self) {
        // SAFETY: `words` came from `Box::leak` in `Block::from_box`, and
        // nothing else frees it.
        drop(unsafe { Box::from_raw(self.words.as_ptr()) });
    }
}

impl Block {
    /// A block of `capacity` words.
    pub(crate) fn new(capacity: usize) -> Block {
        Block::from_box(Box::new_uninit_slice(capacity))
    }

    /// An empty block that holds nothing.
    pub(crate) fn empty() -> Block {
        Block::from_box(Box::new([]))
    }

    /// A block over `words`, owned from now on through a raw pointer.
    fn from_box(words: Box<[MaybeUninit<u64>]>) -> Block {
        let limit = words.len();
        Block {
            words: NonNull::from(Box::leak(words)),
            limit,
            top: 0,
        }
    }

    /// Bump-allocates `n` words, or `None` if they do not fit.
    #[inline]
    pub(crate) fn alloc(&mut self, n: usize) -> Option<*mut u64> {
        if self.limit - self.top >= n {
            // SAFETY: top + n <= limit <= len, so the pointer is within the allocation.
            let p = unsafe { self.start().add(self.top) };
            self.top += n;
            Some(p)
        } else {
            None
        }
    }

    /// Lowers the capacity to `capacity` words (never below the words in
    /// use, never above the storage).
    pub(crate) fn shrink_to(&mut self, capacity: usize) {
        self.limit = capacity.clamp(self.top, self.words.len());
    }

    /// Words in use.
    #[inline]
    pub(crate) fn used(&self) -> usize {
        self.top
    }

    /// Usable words in all.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.limit
    }

    /// Sets the words in use (bump allocation done outside [`Block::alloc`]).
    #[inline]
    pub(crate) fn set_used(&mut self, used: usize) {
        debug_assert!(used <= self.limit);
        self.top = used;
    }

    /// Words still free.
    #[inline]
    pub(crate) fn free(&self) -> usize {
        self.limit - self.top
    }

    /// Address of the first word.
    #[inline]
    pub(crate) fn start(&self) -> *mut u64 {
        self.words.as_ptr().cast::<u64>()
    }

    /// Address one past the last word in use.
    #[inline]
    pub(crate) fn end_used(&self) -> *mut u64 {
        // SAFETY: top <= len.
        unsafe { self.start().add(self.top) }
    }

    /// True if `p` points into the used part of the block.
    #[inline]
    pub(crate) fn contains(&self, p: *const u64) -> bool {
        let start = self.start() as usize;
        let p = p as usize;
        p >= start && p < start + self.top * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocates_up_to_the_capacity_and_shrinks() {
        let mut b = Block::new(10);
        assert_eq!(b.capacity(), 10);
        let p = b.alloc(4).unwrap();
        // SAFETY: four fresh words.
        unsafe { p.write(7) };
        assert!(b.contains(p));
        b.shrink_to(6);
        assert_eq!((b.capacity(), b.free()), (6, 2));
        assert!(b.alloc(3).is_none());
        assert!(b.alloc(2).is_some());
        b.shrink_to(0);
        assert_eq!(b.capacity(), 6, "never below the words in use");
        b.shrink_to(100);
        assert_eq!(b.capacity(), 10, "never above the storage");
        assert!(Block::empty().alloc(1).is_none());
    }
}
