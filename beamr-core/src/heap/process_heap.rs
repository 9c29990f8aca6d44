//! [`Heap`]: one process's young and old generations, its overflow
//! fragments, and the off-heap binaries it refers to.

use super::block::Block;
use super::gc::GcStats;
use crate::term::{Header, OffHeapBinary, Subtag, Term};
use thin_vec::ThinVec;

/// The smallest young generation, in words (the BEAM's default `min_heap_size`).
pub const MIN_HEAP_WORDS: usize = 233;

/// Minor collections between major ones unless a process says otherwise
/// (the BEAM's default `fullsweep_after`).
pub const DEFAULT_FULLSWEEP_AFTER: u32 = 65535;

/// A process heap.
///
/// ```text
///  young   [ survived one GC | newer objects ........ | free ]
///           0            high_water                  top
///  old     [ promoted objects | free ]          (filled by minor collections)
///  fragments: overflow blocks and absorbed message heaps (part of young)
/// ```
///
/// Objects only ever point to older objects, so nothing in the old
/// generation points into the young one, and a minor collection needs no
/// remembered set.
pub struct Heap {
    pub(crate) young: Block,
    /// Words of `young` below this index survived one collection.
    pub(crate) high_water: usize,
    pub(crate) old: Block,
    /// Overflow allocations and absorbed heaps; counted as young.
    pub(crate) fragments: ThinVec<Block>,
    /// Words in use in `fragments`.
    pub(crate) fragment_words: usize,
    /// Refc-binary objects allocated in `young` or in `fragments`.
    pub(crate) young_bins: ThinVec<*const u64>,
    /// Refc-binary objects in `old`.
    pub(crate) old_bins: ThinVec<*const u64>,
    /// Minor collections since the last major one.
    pub(crate) minors_since_major: u32,
    /// A major collection happens after this many minor ones (`fullsweep_after`).
    pub(crate) fullsweep_after: u32,
    /// The young generation is never sized below this (`min_heap_size`).
    pub(crate) min_young: usize,
    pub(crate) stats: GcStats,
}

// SAFETY: a Heap owns every block its pointers point into; the only shared
// data it refers to are off-heap binaries (atomically reference counted) and
// interned `'static` fun and export entries. One thread uses it at a time.
unsafe impl Send for Heap {}

impl Default for Heap {
    fn default() -> Heap {
        Heap::new()
    }
}

impl Heap {
    /// A heap with the minimum young generation.
    pub fn new() -> Heap {
        Heap::with_capacity(MIN_HEAP_WORDS)
    }

    /// A heap whose young generation holds `words` words before it overflows.
    pub fn with_capacity(words: usize) -> Heap {
        Heap {
            young: Block::new(words),
            high_water: 0,
            old: Block::empty(),
            fragments: ThinVec::new(),
            fragment_words: 0,
            young_bins: ThinVec::new(),
            old_bins: ThinVec::new(),
            minors_since_major: 0,
            fullsweep_after: DEFAULT_FULLSWEEP_AFTER,
            min_young: MIN_HEAP_WORDS,
            stats: GcStats::default(),
        }
    }

    /// Sets the size below which collections never make the young
    /// generation (`min_heap_size`, in words); it takes effect at the next
    /// collection.
    pub fn set_min_heap_size(&mut self, words: usize) {
        self.min_young = words;
    }

    /// The young generation's smallest size ([`Heap::set_min_heap_size`]).
    pub fn min_heap_size(&self) -> usize {
        self.min_young
    }

    /// Sets how many minor collections may pass before a major one
    /// (`fullsweep_after`; 0 makes every collection major).
    pub fn set_fullsweep_after(&mut self, n: u32) {
        self.fullsweep_after = n;
    }

    /// Allocates `n` words. Never fails: when the young generation is full,
    /// the words come from a heap fragment and [`Heap::needs_gc`] turns true.
    ///
    /// The words are uninitialised: the caller writes every one of them (a
    /// header and its body, or a cons cell's two words) before anything
    /// reads the heap (a collection, a copy, a term view).
    #[inline]
    pub fn alloc(&mut self, n: usize) -> *mut u64 {
        match self.young.alloc(n) {
            Some(p) => p,
            None => self.alloc_slow(n),
        }
    }

    #[cold]
    fn alloc_slow(&mut self, n: usize) -> *mut u64 {
        self.fragment_words += n;
        if let Some(p) = self.fragments.last_mut().and_then(|f| f.alloc(n)) {
            return p;
        }
        let size = n.max(self.young.capacity()).max(MIN_HEAP_WORDS);
        let mut block = Block::new(size);
        let p = block.alloc(n).expect("a fresh fragment fits the request");
        self.fragments.push(block);
        p
    }

    /// True if `n` more words fit in the young generation without overflow.
    #[inline]
    pub fn has_room(&self, n: usize) -> bool {
        self.young.free() >= n
    }

    /// True when the young generation and its fragments together hold more
    /// than the young generation's size (allocation overflowed, or absorbed
    /// messages filled it): the owner should collect at its next safe point.
    #[inline]
    pub fn needs_gc(&self) -> bool {
        self.fragment_words > 0 && self.young.used() + self.fragment_words > self.young.capacity()
    }

    /// True when `n` words can be allocated in the young generation and no
    /// collection is due ([`has_room`](Self::has_room) and not
    /// [`needs_gc`](Self::needs_gc)), in one comparison: the fragments
    /// overflow the young generation exactly when they outgrow its free
    /// space. This is the test of `allocate` and `test_heap`.
    #[inline(always)]
    pub fn fits_without_gc(&self, n: usize) -> bool {
        self.young.free() >= n.max(self.fragment_words)
    }

    /// The young generation's free words as a bump region, for code that
    /// allocates without calling in (the native code of beamr-sched's
    /// loader): its next free word, and the end of the words that can be
    /// taken while [`fits_without_gc`](Self::fits_without_gc) holds. When a
    /// collection is due, the end lies below the start, so that any test
    /// against it fails and that code leaves the work to the path that
    /// collects. Hand the new next free word back with
    /// [`set_young_bump_top`](Self::set_young_bump_top).
    pub fn young_bump_region(&mut self) -> (*mut u64, *mut u64) {
        let top = self.young.end_used();
        if self.young.free() < self.fragment_words {
            return (top, top.wrapping_sub(1));
        }
        // SAFETY: top + free is the block's usable end.
        (top, unsafe { top.add(self.young.free()) })
    }

    /// Ends a bump allocation begun with
    /// [`young_bump_region`](Self::young_bump_region): the words below
    /// `top` are in use.
    ///
    /// # Safety
    ///
    /// `top` lies between the region's start and end, and every word from
    /// the start to `top` holds a term or the words of an object.
    pub unsafe fn set_young_bump_top(&mut self, top: *mut u64) {
        // SAFETY: the caller keeps top within the block's usable words.
        let used = unsafe { top.offset_from(self.young.start()) } as usize;
        debug_assert!(used >= self.young.used() && used <= self.young.capacity());
        self.young.set_used(used);
    }

    /// Words in use in all generations and fragments.
    pub fn used_words(&self) -> usize {
        self.young.used() + self.old.used() + self.fragments.iter().map(Block::used).sum::<usize>()
    }

    /// Words in use in the young generation (without fragments).
    pub fn young_used(&self) -> usize {
        self.young.used()
    }

    /// Words in use in the old generation.
    pub fn old_used(&self) -> usize {
        self.old.used()
    }

    /// Words in heap fragments (overflow and absorbed messages).
    pub fn fragment_words(&self) -> usize {
        self.fragment_words
    }

    /// Size of the young generation in words (`heap_size` in `process_info`).
    pub fn young_capacity(&self) -> usize {
        self.young.capacity()
    }

    /// Size of the old generation in words.
    pub fn old_capacity(&self) -> usize {
        self.old.capacity()
    }

    /// Collection statistics.
    pub fn stats(&self) -> &GcStats {
        &self.stats
    }

    /// Takes over every block and binary of `other` (a message built by its
    /// sender, say): its terms stay valid and become part of this heap's
    /// young generation until the next collection.
    pub fn absorb(&mut self, mut other: Heap) {
        for block in [
            std::mem::replace(&mut other.young, Block::empty()),
            std::mem::replace(&mut other.old, Block::empty()),
        ] {
            if block.used() > 0 {
                self.fragment_words += block.used();
                self.fragments.push(block);
            }
        }
        self.fragment_words += other.fragment_words;
        self.fragments.append(&mut other.fragments);
        self.young_bins.append(&mut other.young_bins);
        self.young_bins.append(&mut other.old_bins);
        // `other` is now empty; dropping it releases nothing.
    }

    /// Records a refc-binary object just allocated at `object` (its header).
    #[inline]
    pub(crate) fn register_bin(&mut self, object: *const u64) {
        self.young_bins.push(object);
    }

    /// The refc-binary objects on this heap, one for each off-heap binary
    /// reference it holds (`process_info(P, binary)`).
    pub fn off_heap_binary_terms(&self) -> Vec<Term> {
        let objects = self.young_bins.iter().chain(self.old_bins.iter());
        objects.map(|&object| boxed(object)).collect()
    }

    /// Number of off-heap binaries this heap holds a reference to.
    pub fn off_heap_binary_count(&self) -> usize {
        self.young_bins.len() + self.old_bins.len()
    }
}

impl Drop for Heap {
    fn drop(&mut self) {
        for &object in self.young_bins.iter().chain(self.old_bins.iter()) {
            // SAFETY: registered objects are live refc-binary objects in this
            // heap's blocks, which are still allocated here.
            let bin = unsafe { refc_bin_target(object) };
            // SAFETY: each registered object owns one reference, released once.
            unsafe { OffHeapBinary::release(bin) };
        }
    }
}

/// The off-heap binary a refc-binary object at `object` refers to.
///
/// # Safety
///
/// `object` must point to the header of a live (not forwarded) refc-binary object.
#[inline]
pub(crate) unsafe fn refc_bin_target(object: *const u64) -> *const OffHeapBinary {
    // SAFETY: per the contract, the object's words are [header, size, ptr].
    unsafe {
        debug_assert_eq!(Header(*object).subtag(), Subtag::RefcBin);
        *object.add(2) as *const OffHeapBinary
    }
}

/// Builds a boxed term for the object whose header is at `p`.
#[inline]
pub(crate) fn boxed(p: *const u64) -> Term {
    Term::boxed_ptr(p)
}
