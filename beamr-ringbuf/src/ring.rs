//! One ring: the single-writer, flight-recorder write protocol, and the
//! memory orderings that let readers copy events without ever blocking it.
//!
//! # State
//!
//! Positions are *monotonic word indices*: they only grow, and the word at
//! position `p` lives in slot `p % ring_words` of the ring's data. The ring
//! header holds, each written only by the ring's one writer:
//!
//! - `head`: position of the oldest event still in the ring (own cache line);
//! - `tail`: position one past the newest complete event (next cache line);
//! - `tail_seq`: number of events ever written; the next event's sequence
//!   number.
//!
//! Every word in `[head, tail)` belongs to a complete event; events are laid
//! back to back; an event never crosses the end of the data area: when it
//! would, the writer first fills the rest of the area with one padding event.
//!
//! # Writer protocol (one thread per ring)
//!
//! 1. Compute the new tail `t' = tail + pad + n`.
//! 2. If `t' - head > ring_words` (full), walk `head` forward over whole
//!    events (reading their length words, which this writer wrote) until
//!    the new event fits; store `head` (relaxed), then a **release fence**.
//! 3. Store the padding header (if any) and the event's words (relaxed),
//!    the last of them its checksum ([`crate::layout::checksum`]).
//! 4. Store `tail_seq + 1` (relaxed), then `tail = t'` with **release**.
//!
//! No allocation, no lock, no system call: a bounded number of loads and
//! stores to memory that is already mapped.
//!
//! # Why the orderings (a seqlock per event)
//!
//! - *Publication*: the release store of `tail` (4) pairs with a reader's
//!   acquire load of `tail`; everything written before it (the event's words,
//!   `tail_seq`) is visible to a reader that sees the new tail.
//! - *Overwrite detection*: the writer advances `head` past an event before
//!   it stores anything over that event's slots, with a release fence between
//!   the `head` store and those stores (2). A reader copies an event with
//!   relaxed loads, issues an **acquire fence**, and loads `head` again. If
//!   any word it copied came from an overwriting store, the fences
//!   synchronise, so its second load of `head` sees a value past the event's
//!   start, and it discards the copy. This is the reader half of a seqlock
//!   (H.-J. Boehm, "Can seqlocks get along with programming language memory
//!   models?", 2012), with `head` as the sequence; OCaml's
//!   `runtime/runtime_events.c` reads its rings the same way.
//! - All shared words are accessed as atomics, so a misbehaving writer or a
//!   foreign process can garble events but cannot cause undefined behaviour;
//!   readers validate what they decode.
//!
//! On x86-64 every one of these loads and stores is a plain `mov` and the
//! fences are compiler barriers only.

use std::sync::atomic::{fence, AtomicU64, Ordering};

use crate::layout::ring_header;
use crate::layout::{
    checksum_step, Category, EventHeader, Geometry, CHECKSUM_SEED, EVENT_OVERHEAD_WORDS,
    EVENT_PREFIX_WORDS, MAX_PAYLOAD_WORDS,
};

/// One ring's header fields and data, borrowed from a mapped file.
#[derive(Copy, Clone)]
pub(crate) struct Ring<'a> {
    pub(crate) head: &'a AtomicU64,
    pub(crate) tail: &'a AtomicU64,
    pub(crate) tail_seq: &'a AtomicU64,
    pub(crate) claimed: &'a AtomicU64,
    pub(crate) data: &'a [AtomicU64],
    /// `data.len() - 1`; `data.len()` is a power of two.
    pub(crate) mask: u64,
}

/// Where ring `i` of a file lies: the word indices of its header and its
/// data, worked out once per file so that a writer finds its ring with
/// two bounds checks rather than the geometry's arithmetic.
#[derive(Copy, Clone, Debug)]
pub(crate) struct RingPlace {
    header: usize,
    data: usize,
    words: usize,
}

/// Words of a ring header that [`Ring`] reaches (its fields' indices are
/// all below this).
const HEADER_SPAN: usize = ring_header::CLAIMED + 1;

impl RingPlace {
    /// Ring `i` of a file laid out as `g`.
    pub(crate) fn new(g: &Geometry, i: usize) -> RingPlace {
        RingPlace {
            header: g.ring_header_word(i, 0),
            data: g.ring_data_word(i),
            words: g.ring_words,
        }
    }

    /// The word indices of the header fields [`Ring`] reaches.
    #[inline(always)]
    pub(crate) fn header_words(&self) -> std::ops::Range<usize> {
        self.header..self.header + HEADER_SPAN
    }

    /// The word indices of the ring's data.
    #[inline(always)]
    pub(crate) fn data_words(&self) -> std::ops::Range<usize> {
        self.data..self.data + self.words
    }
}

impl<'a> Ring<'a> {
    /// Ring `i` of a file laid out as `g`, over `words` (the whole file).
    /// The caller has checked that `words` covers `g.file_size`.
    pub(crate) fn new(words: &'a [AtomicU64], g: &Geometry, i: usize) -> Ring<'a> {
        Ring::at(words, &RingPlace::new(g, i))
    }

    /// The ring at `place` over `words` (the whole file).
    #[inline(always)]
    pub(crate) fn at(words: &'a [AtomicU64], place: &RingPlace) -> Ring<'a> {
        Ring::from_parts(&words[place.header_words()], &words[place.data_words()])
    }

    /// The ring whose header fields are `header` (the words of
    /// [`RingPlace::header_words`]) and whose data is `data`, a power of
    /// two of words.
    #[inline(always)]
    pub(crate) fn from_parts(header: &'a [AtomicU64], data: &'a [AtomicU64]) -> Ring<'a> {
        let header: &[AtomicU64; HEADER_SPAN] =
            header.try_into().expect("a slice of HEADER_SPAN words");
        Ring {
            head: &header[ring_header::HEAD],
            tail: &header[ring_header::TAIL],
            tail_seq: &header[ring_header::TAIL_SEQ],
            claimed: &header[ring_header::CLAIMED],
            data,
            mask: data.len() as u64 - 1,
        }
    }

    /// Writes one event. Only the ring's single writer may call this (see
    /// the module documentation); a second concurrent writer garbles events
    /// (which readers detect) but is not undefined behaviour.
    ///
    /// Returns false, writing nothing, if `payload` is longer than
    /// [`MAX_PAYLOAD_WORDS`].
    #[inline]
    pub(crate) fn write(
        &self,
        category: Category,
        kind: u16,
        timestamp_ns: u64,
        payload: &[u64],
    ) -> bool {
        self.write_with(category, kind, timestamp_ns, payload.len(), |out| {
            out.put(payload)
        })
    }

    /// Writes one event of `words` payload words, which `fill` puts into
    /// the [`SlotsOut`] it is handed, straight into the ring: no copy
    /// through a buffer, and the checksum folded in as each word is
    /// stored. `fill` must put exactly `words` words; a slot it leaves
    /// holds an older event's word and the checksum no longer matches
    /// (readers count the event damaged, as with any writer bug, never
    /// undefined behaviour). Only the ring's single writer may call this,
    /// as [`Ring::write`].
    ///
    /// Returns false, writing nothing, if `words` is more than
    /// [`MAX_PAYLOAD_WORDS`]. Inlined into each writer, so that `fill`
    /// stores straight into the slots.
    #[inline(always)]
    pub(crate) fn write_with(
        &self,
        category: Category,
        kind: u16,
        timestamp_ns: u64,
        words: usize,
        fill: impl FnOnce(&mut SlotsOut<'_>),
    ) -> bool {
        if words > MAX_PAYLOAD_WORDS {
            return false;
        }
        let n = (EVENT_OVERHEAD_WORDS + words) as u64;
        let size = self.mask + 1;
        // Only this thread stores `tail`, `head` and `tail_seq`: relaxed
        // loads read back its own last stores.
        let tail = self.tail.load(Ordering::Relaxed);
        let room_to_end = size - (tail & self.mask);
        let pad = if n > room_to_end { room_to_end } else { 0 };
        let new_tail = tail + pad + n;

        let mut head = self.head.load(Ordering::Relaxed);
        if new_tail - head > size {
            while new_tail - head > size {
                let h = EventHeader::decode(
                    self.data[(head & self.mask) as usize].load(Ordering::Relaxed),
                );
                // Own writes: the length is at least 1. `max` keeps a
                // corrupted word from stalling the loop.
                head += h.len.max(1) as u64;
            }
            self.head.store(head, Ordering::Relaxed);
            // Orders the head store before the overwriting stores below
            // (pairs with the reader's acquire fence).
            fence(Ordering::Release);
        }

        let mut at = tail;
        if pad > 0 {
            self.data[(at & self.mask) as usize].store(
                EventHeader::padding(pad as usize).encode(),
                Ordering::Relaxed,
            );
            at += pad;
        }
        let seq = self.tail_seq.load(Ordering::Relaxed);
        let start = (at & self.mask) as usize;
        let header = EventHeader {
            len: n as usize,
            category: category.to_u8(),
            kind,
            seq_low: seq as u32,
        };
        // The event does not cross the end of the data area (padding above).
        let end = start + n as usize;
        let (slots, last) = (&self.data[start..end - 1], &self.data[end - 1]);
        let header = header.encode();
        slots[0].store(header, Ordering::Relaxed);
        slots[1].store(timestamp_ns, Ordering::Relaxed);
        let mut out = SlotsOut {
            slots: &slots[EVENT_PREFIX_WORDS..],
            n: 0,
            sum: checksum_step(checksum_step(CHECKSUM_SEED, header), timestamp_ns),
        };
        fill(&mut out);
        debug_assert_eq!(out.n, words, "the payload's length");
        last.store(out.sum, Ordering::Relaxed);
        self.tail_seq.store(seq + 1, Ordering::Relaxed);
        // Publishes the event and `tail_seq` (pairs with the reader's
        // acquire load of `tail`).
        self.tail.store(new_tail, Ordering::Release);
        true
    }

    /// Events written to this ring so far.
    pub(crate) fn written(&self) -> u64 {
        self.tail_seq.load(Ordering::Acquire)
    }
}

/// A ring's slots for one event's payload, stored into as the words are
/// encoded (no buffer to fill and copy), each folded into the event's
/// checksum as it is stored: two instructions a word.
pub(crate) struct SlotsOut<'a> {
    slots: &'a [AtomicU64],
    n: usize,
    sum: u64,
}

impl SlotsOut<'_> {
    /// Stores `words` in the next slots.
    #[inline(always)]
    pub(crate) fn put(&mut self, words: &[u64]) {
        for (slot, &w) in self.slots[self.n..self.n + words.len()].iter().zip(words) {
            slot.store(w, Ordering::Relaxed);
            self.sum = checksum_step(self.sum, w);
        }
        self.n += words.len();
    }

    /// Words stored so far.
    pub(crate) fn stored(&self) -> usize {
        self.n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::MIN_RING_WORDS;

    fn words(g: &Geometry) -> Vec<AtomicU64> {
        (0..g.file_size / 8).map(|_| AtomicU64::new(0)).collect()
    }

    #[test]
    fn events_pad_at_the_end_and_overwrite_the_oldest() {
        let g = Geometry::new(1, MIN_RING_WORDS, 0);
        let w = words(&g);
        let ring = Ring::new(&w, &g, 0);
        // 100 events of 7 words: 700 words > 512, so it wraps.
        for i in 0..100u64 {
            assert!(ring.write(Category::User, 3, i, &[i; 4]));
        }
        let head = ring.head.load(Ordering::Relaxed);
        let tail = ring.tail.load(Ordering::Relaxed);
        assert!(tail - head <= MIN_RING_WORDS as u64);
        assert_eq!(ring.written(), 100);
        // 512 = 73 * 7 + 1: one word of padding at the first wrap.
        assert_eq!(tail, 100 * 7 + 1);
        let start = ((tail - 7) & ring.mask) as usize;
        let last = EventHeader::decode(ring.data[start].load(Ordering::Relaxed));
        assert_eq!((last.len, last.kind, last.seq_low), (7, 3, 99));
        let words: Vec<u64> = ring.data[start..start + 7]
            .iter()
            .map(|w| w.load(Ordering::Relaxed))
            .collect();
        assert_eq!(words[6], crate::layout::checksum(&words[..6]));
        let pad = EventHeader::decode(ring.data[511].load(Ordering::Relaxed));
        assert_eq!((pad.len, pad.category), (1, 0));
    }

    #[test]
    fn oversized_payloads_are_refused() {
        let g = Geometry::new(1, MIN_RING_WORDS, 0);
        let w = words(&g);
        let ring = Ring::new(&w, &g, 0);
        assert!(!ring.write(Category::User, 0, 0, &[0; MAX_PAYLOAD_WORDS + 1]));
        assert!(ring.write(Category::User, 0, 0, &[0; MAX_PAYLOAD_WORDS]));
        assert_eq!(ring.written(), 1);
    }
}
