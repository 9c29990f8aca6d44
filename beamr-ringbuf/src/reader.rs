//! Reading one ring: copy an event, re-check the head, deliver or discard;
//! account for every event as delivered or lost.
//!
//! The orderings are explained in [`crate::ring`]. Per ring, the reader keeps
//! its position (a monotonic word index) and the sequence number it expects
//! next. When the writer has overwritten the events at the reader's position,
//! the reader jumps to the current head; the first event it then delivers
//! carries a sequence number past the expected one, and the difference is
//! reported as lost. Padding carries no sequence number and is skipped.

use std::sync::atomic::{fence, Ordering};

use crate::layout::{full_seq, Category, EventHeader, EVENT_PREFIX_WORDS};
use crate::ring::Ring;

/// A reader's progress in one ring.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct RingState {
    /// Next position to read.
    pub pos: u64,
    /// Sequence number expected next.
    pub expected: u64,
    /// Events delivered.
    pub delivered: u64,
    /// Events reported lost.
    pub lost: u64,
    /// Set when the ring was found corrupt; it is not read again.
    pub broken: bool,
}

/// What reading a ring produced, in ring order.
pub(crate) enum Item<'b> {
    /// `n` events were overwritten before they could be read.
    Lost(u64),
    /// A complete event: its sequence number and all its words.
    Event(u64, &'b [u64]),
    /// The ring is corrupt at position `pos`.
    Corrupt(u64, &'static str),
}

/// Reads every complete event of `ring` past `st`, calling `f` for each item.
pub(crate) fn poll_ring(
    ring: &Ring<'_>,
    st: &mut RingState,
    buf: &mut Vec<u64>,
    mut f: impl FnMut(Item<'_>),
) {
    if st.broken {
        return;
    }
    let size = ring.mask + 1;
    // Acquire: everything the writer stored before publishing this tail
    // (events, `tail_seq`) is visible.
    let mut tail = ring.tail.load(Ordering::Acquire);
    let mut tail_seq = ring.tail_seq.load(Ordering::Relaxed);
    fn corrupt(st: &mut RingState, f: &mut impl FnMut(Item<'_>), pos: u64, why: &'static str) {
        st.broken = true;
        f(Item::Corrupt(pos, why));
    }
    while st.pos < tail {
        let head = ring.head.load(Ordering::Acquire);
        if st.pos < head {
            // Overwritten under us: the writer is ahead; refresh the tail
            // so the jump lands inside the published area.
            tail = ring.tail.load(Ordering::Acquire);
            tail_seq = ring.tail_seq.load(Ordering::Relaxed);
            if head > tail {
                return corrupt(st, &mut f, head, "head is past tail");
            }
            st.pos = head;
            continue;
        }
        let pos = st.pos;
        let off = (pos & ring.mask) as usize;
        let h = EventHeader::decode(ring.data[off].load(Ordering::Relaxed));
        let cat = Category::from_u8(h.category);
        let min_len = if cat == Some(Category::Padding) {
            1
        } else {
            EVENT_PREFIX_WORDS
        };
        let shaped = cat.is_some()
            && h.len >= min_len
            && off as u64 + h.len as u64 <= size
            && pos + h.len as u64 <= tail;
        buf.clear();
        if shaped {
            buf.extend(
                ring.data[off..off + h.len]
                    .iter()
                    .map(|w| w.load(Ordering::Relaxed)),
            );
        }
        // Pairs with the writer's release fence after its head store: if
        // anything copied above was overwritten, this load sees the head
        // past `pos`.
        fence(Ordering::Acquire);
        if ring.head.load(Ordering::Relaxed) > pos {
            continue; // torn or overwritten: discard, jump on the next turn
        }
        if !shaped {
            return corrupt(st, &mut f, pos, "malformed event header");
        }
        // Re-decode from the copy: the copy is what was validated.
        let h = EventHeader::decode(buf[0]);
        if cat == Some(Category::Padding) {
            st.pos += h.len as u64;
            continue;
        }
        let Some(seq) = full_seq(h.seq_low, tail_seq) else {
            return corrupt(st, &mut f, pos, "sequence number beyond the ring's count");
        };
        if seq < st.expected {
            return corrupt(st, &mut f, pos, "sequence number went backwards");
        }
        if seq > st.expected {
            st.lost += seq - st.expected;
            f(Item::Lost(seq - st.expected));
        }
        st.expected = seq + 1;
        st.delivered += 1;
        st.pos += h.len as u64;
        f(Item::Event(seq, buf));
    }
}
