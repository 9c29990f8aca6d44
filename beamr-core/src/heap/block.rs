//! [`Block`]: one contiguous, bump-allocated area of heap words.

/// A contiguous area of words with a bump pointer. The words never move
/// while the block lives, so terms may point into it.
pub(crate) struct Block {
    words: Box<[u64]>,
    top: usize,
}

impl Block {
    /// A block of `capacity` zeroed words.
    pub(crate) fn new(capacity: usize) -> Block {
        Block {
            words: vec![0u64; capacity].into_boxed_slice(),
            top: 0,
        }
    }

    /// An empty block that holds nothing.
    pub(crate) fn empty() -> Block {
        Block {
            words: Box::new([]),
            top: 0,
        }
    }

    /// Bump-allocates `n` words, or `None` if they do not fit.
    #[inline]
    pub(crate) fn alloc(&mut self, n: usize) -> Option<*mut u64> {
        if self.words.len() - self.top >= n {
            // SAFETY: top + n <= len, so the pointer is within the allocation.
            let p = unsafe { self.words.as_mut_ptr().add(self.top) };
            self.top += n;
            Some(p)
        } else {
            None
        }
    }

    /// Words in use.
    #[inline]
    pub(crate) fn used(&self) -> usize {
        self.top
    }

    /// Words allocated in all.
    #[inline]
    pub(crate) fn capacity(&self) -> usize {
        self.words.len()
    }

    /// Words still free.
    #[inline]
    pub(crate) fn free(&self) -> usize {
        self.words.len() - self.top
    }

    /// Address of the first word.
    #[inline]
    pub(crate) fn start(&self) -> *mut u64 {
        self.words.as_ptr() as *mut u64
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
