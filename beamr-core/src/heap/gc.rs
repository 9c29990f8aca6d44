//! The generational copying collector (Cheney's algorithm with forwarding
//! pointers written in place).
//!
//! # Protocol
//!
//! 1. Choose: a *minor* collection copies live young objects, promoting those
//!    below the high-water mark (they already survived one collection) to the
//!    old generation; a *major* one copies everything live, young and old,
//!    into a fresh young generation. Major happens when asked, after
//!    `fullsweep_after` minors, or when the old generation cannot take the
//!    promotions.
//! 2. Evacuate the roots: each pointer into from-space is replaced by the
//!    address of a copy. Copying a boxed object overwrites its header with a
//!    BOXED pointer to the copy; copying a cons cell writes NON_VALUE in its
//!    head and a LIST pointer in its tail. Seeing either again returns the copy.
//! 3. Scan the copies (in the new young block and in the promoted part of the
//!    old block) word by word, evacuating every term word they contain, until
//!    both scan pointers reach their block's top. A header's raw words are
//!    skipped ([`Subtag::raw_prefix`]).
//! 4. Off-heap binaries: each refc-binary object recorded in the collected
//!    generations either was forwarded (it lives on, recorded at its new
//!    address) or was not (its reference is released).
//! 5. Free from-space: fragments, the old young block, and for a major
//!    collection the old block.
//!
//! Pointers outside from-space (literals, another generation in a minor
//! collection) are left alone: they are never copied.

use super::block::Block;
use super::process_heap::{refc_bin_target, Heap, MIN_HEAP_WORDS};
use crate::term::tag::{PRIMARY_BOXED, PRIMARY_LIST, PRIMARY_MASK};
use crate::term::{Header, OffHeapBinary, Subtag, Term};
use thin_vec::ThinVec;

/// Counters of one heap's collections.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GcStats {
    /// Minor collections done.
    pub minor_collections: u64,
    /// Major collections done.
    pub major_collections: u64,
    /// Words copied in all.
    pub words_copied: u64,
    /// Words reclaimed in all.
    pub words_reclaimed: u64,
}

/// The address ranges being collected, and where survivors go.
struct FromSpace {
    /// `[start, end)` address ranges; sorted by start once [`FromSpace::seal`]ed.
    ranges: Vec<(usize, usize)>,
    /// Objects below this address in the young block go to the old
    /// generation (minor collection only; 0 otherwise).
    mature_start: usize,
    mature_end: usize,
    /// Lowest start and highest end of the ranges: most pointers outside
    /// from-space (literals, the old generation in a minor collection) are
    /// told apart by these two comparisons.
    low: usize,
    high: usize,
}

impl FromSpace {
    /// A from-space with no ranges yet.
    fn new(capacity: usize) -> FromSpace {
        FromSpace {
            ranges: Vec::with_capacity(capacity),
            mature_start: 0,
            mature_end: 0,
            low: 0,
            high: 0,
        }
    }

    /// Drops empty ranges and sorts the rest, once every range is in: a
    /// heap that absorbed many messages has a fragment per message, and a
    /// linear search of them for every pointer made a collection quadratic.
    fn seal(&mut self) {
        self.ranges.retain(|&(s, e)| s < e);
        self.ranges.sort_unstable();
        self.low = self.ranges.first().map_or(0, |r| r.0);
        self.high = self.ranges.iter().map(|r| r.1).max().unwrap_or(0);
    }

    #[inline]
    fn contains(&self, p: usize) -> bool {
        if p < self.low || p >= self.high {
            return false;
        }
        if self.ranges.len() <= 4 {
            return self.ranges.iter().any(|&(s, e)| p >= s && p < e);
        }
        let i = self.ranges.partition_point(|&(s, _)| s <= p);
        i > 0 && p < self.ranges[i - 1].1
    }

    #[inline]
    fn is_mature(&self, p: usize) -> bool {
        p >= self.mature_start && p < self.mature_end
    }
}

/// Where copies are written during one collection.
struct ToSpace<'a> {
    young: &'a mut Block,
    old: &'a mut Block,
    copied: u64,
}

impl ToSpace<'_> {
    /// Copies `words` words from `src` into the young or old block.
    #[inline]
    fn copy(&mut self, src: *const u64, words: usize, to_old: bool) -> *mut u64 {
        let dest = if to_old {
            self.old.alloc(words)
        } else {
            self.young.alloc(words)
        };
        let dest = dest.expect("to-space was sized for every live word");
        // SAFETY: src holds `words` live words of from-space; dest was just
        // allocated with room for them; the two never overlap.
        unsafe { std::ptr::copy_nonoverlapping(src, dest, words) };
        self.copied += words as u64;
        dest
    }
}

/// Returns the new location of `term`, copying it first if it lives in
/// from-space and has not been copied yet.
#[inline]
fn evacuate(term: Term, from: &FromSpace, to: &mut ToSpace<'_>) -> Term {
    let word = term.raw();
    match word & PRIMARY_MASK {
        PRIMARY_LIST => {
            let p = (word & !PRIMARY_MASK) as *mut u64;
            if !from.contains(p as usize) {
                return term;
            }
            // SAFETY: p points to a cons cell in from-space, still allocated.
            let head = unsafe { *p };
            if head == Term::NON_VALUE.raw() {
                // Already moved: the tail holds the new list pointer.
                // SAFETY: as above.
                return Term::from_word(unsafe { *p.add(1) });
            }
            let new = to.copy(p, 2, from.is_mature(p as usize));
            let new_term = Term::from_word(new as u64 | PRIMARY_LIST);
            // SAFETY: p is a from-space cons cell; writing the forwarding marks.
            unsafe {
                *p = Term::NON_VALUE.raw();
                *p.add(1) = new_term.raw();
            }
            new_term
        }
        PRIMARY_BOXED => {
            let p = (word & !PRIMARY_MASK) as *mut u64;
            if !from.contains(p as usize) {
                return term;
            }
            // SAFETY: p points to a boxed object in from-space.
            let header = unsafe { *p };
            if !Header::is_header(header) {
                // Already moved: the header word is the forwarding pointer.
                return Term::from_word(header);
            }
            let words = 1 + Header(header).arity();
            let new = to.copy(p, words, from.is_mature(p as usize));
            let new_term = Term::from_word(new as u64 | PRIMARY_BOXED);
            // SAFETY: p is a from-space object header; overwrite with the forward.
            unsafe { *p = new_term.raw() };
            new_term
        }
        _ => term,
    }
}

/// Evacuates every term word in `block` from word index `scan` to its top
/// (which grows as copies are made); returns the new scan index.
fn scan_block(select_old: bool, mut scan: usize, from: &FromSpace, to: &mut ToSpace<'_>) -> usize {
    loop {
        let block = if select_old { &*to.old } else { &*to.young };
        if scan >= block.used() {
            return scan;
        }
        let base = block.start();
        // SAFETY: scan < used, so the word is initialised and in bounds.
        let word = unsafe { *base.add(scan) };
        if Header::is_header(word) {
            let header = Header(word);
            let arity = header.arity();
            let first_term = scan + 1 + header.subtag().raw_prefix(arity);
            let end = scan + 1 + arity;
            for i in first_term..end {
                // Re-read the base: copying into this block never reallocates it.
                // SAFETY: i < end <= used.
                let slot = unsafe { base.add(i) };
                // SAFETY: slot is a term word of a copied object.
                let moved = evacuate(Term::from_word(unsafe { *slot }), from, to);
                // SAFETY: as above.
                unsafe { *slot = moved.raw() };
            }
            scan = end;
        } else {
            // A word of a cons cell: a term.
            // SAFETY: scan < used.
            let slot = unsafe { base.add(scan) };
            // SAFETY: slot is a term word of a copied cons cell.
            let moved = evacuate(Term::from_word(unsafe { *slot }), from, to);
            // SAFETY: as above.
            unsafe { *slot = moved.raw() };
            scan += 1;
        }
    }
}

/// The next young-generation size at least `words`: grows by half each
/// step from the minimum, as the BEAM's heap-size sequence grows.
fn size_class(words: usize) -> usize {
    let mut size = MIN_HEAP_WORDS;
    while size < words {
        size += size / 2;
    }
    size
}

/// Young generations at most this large are never shrunk (the BEAM's limit).
const SHRINK_ABOVE_WORDS: usize = 3000;

/// Words in the root set: every collection scans them all, so the young
/// generation is sized with them, as the BEAM sizes its heap with the stack
/// (which lives in the same block there). Otherwise a process with a deep
/// stack or a long message queue and little young data collects after every
/// few allocations and scans the whole stack each time.
fn root_words(roots: &[&mut [Term]]) -> usize {
    roots.iter().map(|r| r.len()).sum()
}

impl Heap {
    /// The size of a young generation for `words`: its size class, and at
    /// least the process's `min_heap_size`.
    fn young_size(&self, words: usize) -> usize {
        size_class(words).max(self.min_young)
    }

    /// Sizes the young generation after a collection, as the BEAM does: when
    /// what it must hold (live young words, `need`, and the root set) fills
    /// less than a quarter of it, it shrinks to the size class of three times
    /// that, but not below an eighth of the old generation (minor
    /// collections of a tiny young generation next to a large old one would
    /// come too often). A process whose heap grew for a burst of live data
    /// must not keep collecting into a to-space of that size once the data is
    /// gone. The storage stays until the next collection, which sizes its
    /// to-space from the smaller capacity.
    fn shrink_young(&mut self, need: usize, roots: usize) {
        let capacity = self.young.capacity();
        let wanted = self.young.used() + need + roots;
        let old = self.old.capacity();
        if capacity > SHRINK_ABOVE_WORDS
            && wanted.saturating_mul(4) < capacity
            && (capacity > 8000 || capacity > old)
        {
            let mut target = wanted.saturating_mul(3);
            if target.saturating_mul(9) < old {
                target = target.max(old / 8);
            }
            self.young.shrink_to(self.young_size(target).min(capacity));
        }
    }

    /// Collects garbage, keeping everything reachable from `roots` (which are
    /// updated in place to the new locations), and leaves room for at least
    /// `need` more words in the young generation.
    ///
    /// Every pointer term into this heap that the caller keeps must be among
    /// the roots: any other becomes dangling.
    pub fn collect(&mut self, need: usize, roots: &mut [&mut [Term]]) {
        if self.next_collection_is_major() {
            self.collect_major(need, roots);
        } else {
            self.collect_minor(need, roots);
        }
    }

    /// True if the next [`Heap::collect`] will be a major (full-sweep)
    /// collection: `fullsweep_after` minors have run, or the old generation
    /// could not take the next promotion.
    pub fn next_collection_is_major(&self) -> bool {
        self.fullsweep_after == 0
            || self.minors_since_major >= self.fullsweep_after
            || (self.old.capacity() > 0 && self.old.free() < self.high_water)
    }

    /// Minor collections since the last major one (`process_info`'s
    /// `minor_gcs`).
    pub fn minors_since_major(&self) -> u32 {
        self.minors_since_major
    }

    /// How many minor collections may pass before a major one
    /// ([`Heap::set_fullsweep_after`]).
    pub fn fullsweep_after(&self) -> u32 {
        self.fullsweep_after
    }

    /// Collects everything (a full sweep), as [`Heap::collect`].
    pub fn collect_major(&mut self, need: usize, roots: &mut [&mut [Term]]) {
        let before = self.used_words();
        let mut from = FromSpace::new(2 + self.fragments.len());
        self.push_young_ranges(&mut from);
        from.ranges.push(range(&self.old));
        from.seal();

        let roots_len = root_words(roots);
        let mut new_young = Block::new(self.young_size(before + need + roots_len));
        let mut unused_old = Block::empty();
        let mut to = ToSpace {
            young: &mut new_young,
            old: &mut unused_old,
            copied: 0,
        };
        evacuate_roots(roots, &from, &mut to);
        scan_block(false, 0, &from, &mut to);
        let copied = to.copied;

        let mut bins = std::mem::take(&mut self.young_bins);
        bins.append(&mut self.old_bins);
        let (young_bins, _) = sweep_bins(&bins, &new_young, &unused_old);

        self.young = new_young;
        self.high_water = self.young.used();
        self.old = Block::empty();
        self.fragments.clear();
        self.fragment_words = 0;
        self.young_bins = young_bins;
        self.shrink_young(need, roots_len);
        self.minors_since_major = 0;
        self.stats.major_collections += 1;
        self.stats.words_copied += copied;
        let reclaimed = (before as u64).saturating_sub(copied);
        self.stats.words_reclaimed += reclaimed;
        super::gc_totals::record(reclaimed);
    }

    fn collect_minor(&mut self, need: usize, roots: &mut [&mut [Term]]) {
        let before = self.used_words();
        let young_used = self.young.used() + self.fragments.iter().map(Block::used).sum::<usize>();
        let mut from = FromSpace::new(1 + self.fragments.len());
        self.push_young_ranges(&mut from);
        from.seal();
        let young_start = self.young.start() as usize;
        from.mature_start = young_start;
        from.mature_end = young_start + self.high_water * 8;

        // The old generation must take every mature word; grow it by copying
        // it to a larger block only when it is empty (nothing points into an
        // empty block), otherwise `collect` chose a major collection.
        if self.old.capacity() == 0 && self.high_water > 0 {
            self.old = Block::new(size_class(self.high_water * 2));
        }
        let old_scan_start = self.old.used();
        let roots_len = root_words(roots);
        // Sized from the whole young generation, the mature words that go
        // to the old one included, as the BEAM sizes a minor collection's
        // new heap (`next_heap_size(stack + young usage)`): a process whose
        // data all survives gets a young generation that grows by a size
        // class per collection, not one that stays at the size of what
        // it allocated since the last (which collected a growing list every
        // few hundred words: 4,553 collections for `lists:seq(1, 1000000)`,
        // where the BEAM makes 29). [`Heap::shrink_young`] gives back what
        // turns out unused.
        let mut new_young = Block::new(self.young_size(young_used + need + roots_len));
        let mut to = ToSpace {
            young: &mut new_young,
            old: &mut self.old,
            copied: 0,
        };
        evacuate_roots(roots, &from, &mut to);
        let (mut young_scan, mut old_scan) = (0, old_scan_start);
        loop {
            young_scan = scan_block(false, young_scan, &from, &mut to);
            old_scan = scan_block(true, old_scan, &from, &mut to);
            if young_scan >= to.young.used() && old_scan >= to.old.used() {
                break;
            }
        }
        let copied = to.copied;

        let bins = std::mem::take(&mut self.young_bins);
        let (young_bins, mut promoted) = sweep_bins(&bins, &new_young, &self.old);
        self.old_bins.append(&mut promoted);

        self.young = new_young;
        self.high_water = self.young.used();
        self.fragments.clear();
        self.fragment_words = 0;
        self.young_bins = young_bins;
        self.shrink_young(need, roots_len);
        self.minors_since_major += 1;
        self.stats.minor_collections += 1;
        self.stats.words_copied += copied;
        let reclaimed = (before as u64).saturating_sub(self.used_words() as u64);
        self.stats.words_reclaimed += reclaimed;
        super::gc_totals::record(reclaimed);
    }

    fn push_young_ranges(&self, from: &mut FromSpace) {
        from.ranges.push(range(&self.young));
        from.ranges.extend(self.fragments.iter().map(range));
    }
}

fn range(block: &Block) -> (usize, usize) {
    (block.start() as usize, block.end_used() as usize)
}

fn evacuate_roots(roots: &mut [&mut [Term]], from: &FromSpace, to: &mut ToSpace<'_>) {
    for slice in roots.iter_mut() {
        for root in slice.iter_mut() {
            *root = evacuate(*root, from, to);
        }
    }
}

/// Sorts the recorded refc-binary objects of the collected generations into
/// survivors (at their new address, young or old) and the dead, whose
/// references are released.
fn sweep_bins(
    bins: &[*const u64],
    young: &Block,
    old: &Block,
) -> (ThinVec<*const u64>, ThinVec<*const u64>) {
    let mut young_bins = ThinVec::new();
    let mut old_bins = ThinVec::new();
    for &object in bins {
        // SAFETY: a recorded object lives in from-space, not yet freed.
        let word = unsafe { *object };
        if Header::is_header(word) {
            debug_assert_eq!(Header(word).subtag(), Subtag::RefcBin);
            // Not forwarded: unreachable. SAFETY: the object is intact and
            // owns one reference, released exactly once here.
            unsafe { OffHeapBinary::release(refc_bin_target(object)) };
        } else {
            let new = (word & !PRIMARY_MASK) as *const u64;
            if old.contains(new) {
                old_bins.push(new);
            } else {
                debug_assert!(young.contains(new));
                young_bins.push(new);
            }
        }
    }
    (young_bins, old_bins)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A heap holding `n` words of garbage (a dropped list) and a small live
    /// tuple, returned as the root.
    fn garbage_and_root(n: usize) -> (Heap, Term) {
        let mut heap = Heap::new();
        let mut list = Term::NIL;
        for i in 0..n / 2 {
            list = heap.cons(Term::small_unchecked(i as i64), list);
        }
        let root = heap.tuple(&[Term::small_unchecked(1), Term::small_unchecked(2)]);
        (heap, root)
    }

    #[test]
    fn a_young_generation_much_larger_than_its_live_data_shrinks() {
        for major in [false, true] {
            let (mut heap, root) = garbage_and_root(100_000);
            let mut roots = [root];
            if major {
                heap.collect_major(10, &mut [&mut roots]);
            } else {
                heap.collect(10, &mut [&mut roots]);
            }
            assert_eq!(roots[0].as_tuple().map(<[Term]>::len), Some(2));
            // Three words live and ten needed: the to-space took the 100,000
            // words' size class, the capacity is back near the minimum.
            assert!(heap.young_capacity() <= size_class(3 * 13), "major {major}");
            assert!(heap.has_room(10));
        }
    }

    #[test]
    fn from_space_finds_pointers_among_many_ranges() {
        let mut from = FromSpace::new(8);
        for (s, e) in [
            (500, 600),
            (100, 200),
            (300, 300),
            (900, 1000),
            (700, 800),
            (0, 50),
        ] {
            from.ranges.push((s, e));
        }
        from.seal();
        assert_eq!(from.ranges.len(), 5, "the empty range is dropped");
        for p in [0, 49, 100, 199, 500, 599, 700, 799, 900, 999] {
            assert!(from.contains(p), "{p}");
        }
        for p in [50, 99, 200, 300, 650, 800, 899, 1000, 5000] {
            assert!(!from.contains(p), "{p}");
        }
    }

    #[test]
    fn many_absorbed_message_heaps_are_collected() {
        let mut heap = Heap::new();
        let mut kept = Vec::new();
        for i in 0..2_000 {
            let mut message = Heap::new();
            let t = message.tuple(&[Term::small_unchecked(i), Term::NIL]);
            heap.absorb(message);
            if i % 2 == 0 {
                kept.push(t);
            }
        }
        heap.collect(0, &mut [&mut kept]);
        assert!(!heap.needs_gc());
        for (n, t) in kept.iter().enumerate() {
            assert_eq!(t.as_tuple().unwrap()[0].as_small(), Some(2 * n as i64));
        }
    }

    #[test]
    fn fits_without_gc_is_room_and_no_collection_due() {
        let mut heap = Heap::new();
        for i in 0..400 {
            let mut message = Heap::new();
            message.tuple(&[Term::small_unchecked(i), Term::NIL, Term::NIL]);
            heap.absorb(message);
            heap.tuple(&[Term::NIL; 5]);
            for n in [0, 1, 7, 100, heap.young_capacity()] {
                assert_eq!(
                    heap.fits_without_gc(n),
                    heap.has_room(n) && !heap.needs_gc(),
                    "after {i} messages, {n} words"
                );
            }
        }
        assert!(heap.needs_gc() && !heap.fits_without_gc(0));
    }

    #[test]
    fn small_heaps_and_well_filled_heaps_keep_their_size() {
        // Live data filling more than a quarter of the young generation.
        let mut heap = Heap::new();
        let mut list = Term::NIL;
        for i in 0..5_000 {
            list = heap.cons(Term::small_unchecked(i), list);
        }
        let mut roots = [list];
        heap.collect(0, &mut [&mut roots]);
        let capacity = heap.young_capacity();
        assert!(capacity >= 10_000);
        assert_eq!(roots[0].list_len(), Some(5_000));
        // A young generation of the minimum size is never shrunk.
        let (mut heap, root) = garbage_and_root(200);
        let mut roots = [root];
        heap.collect(0, &mut [&mut roots]);
        assert_eq!(heap.young_capacity(), MIN_HEAP_WORDS);
    }

    #[test]
    fn collections_keep_the_young_generation_at_min_heap_size() {
        let (mut heap, root) = garbage_and_root(200);
        heap.set_min_heap_size(1598);
        let mut roots = [root];
        heap.collect(0, &mut [&mut roots]);
        assert_eq!(heap.young_capacity(), 1598);
        heap.collect_major(0, &mut [&mut roots]);
        assert_eq!(heap.young_capacity(), 1598);
    }
}
