//! Reading one ring: copy an event, re-check the head, verify, deliver or
//! discard; account for every event as delivered or lost.
//!
//! The orderings are explained in [`crate::ring`]. Per ring, the reader keeps
//! its position (a monotonic word index) and the sequence number it expects
//! next. When the writer has overwritten the events at the reader's position,
//! the reader jumps to the current head; the first event it then delivers
//! carries a sequence number past the expected one, and the difference is
//! reported as lost. Padding carries no sequence number and is skipped.
//!
//! # Damage
//!
//! An event is delivered only if its shape is possible (a known category, a
//! length that fits, padding that ends exactly at the end of the data area
//! with no kind or sequence number) and its checksum word matches
//! ([`crate::layout::checksum`]), with a sequence number between the one
//! expected and the ring's count. Anything else is damage: the reader then
//! looks for the next word, one at a time, where a whole event passes those
//! checks (a false match needs a 64-bit checksum to agree by chance), and
//! reports the events between as lost and damaged ([`Item::Damaged`]). A
//! damaged stretch that runs to the tail is settled by the next event, or by
//! [`crate::Cursor::finish`].

use std::sync::atomic::{fence, Ordering};

use crate::layout::{checksum, full_seq, Category, EventHeader, MIN_EVENT_WORDS};
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
    /// Events reported lost (those damaged included).
    pub lost: u64,
    /// Of the lost events, those lost to damage: events that failed their
    /// checksum or lay in words that could not be read as events.
    pub damaged: u64,
    /// Set when the ring was found corrupt; it is not read again.
    pub broken: bool,
    /// Where the damage being skipped began, and why, until the next good
    /// event says how many events it covered.
    pending: Option<(u64, &'static str)>,
}

impl RingState {
    /// Counts `count` events as lost to the pending damage, and clears it.
    pub(crate) fn settle_damage(&mut self, count: u64) -> Option<(u64, &'static str)> {
        let p = self.pending.take()?;
        self.lost += count;
        self.damaged += count;
        Some(p)
    }
}

/// What reading a ring produced, in ring order.
pub(crate) enum Item<'b> {
    /// `n` events were overwritten before they could be read.
    Lost(u64),
    /// A complete event: its sequence number and all its words.
    Event(u64, &'b [u64]),
    /// Damaged words from position `pos` (why: the first check that failed)
    /// held `count` events, which are lost.
    Damaged {
        /// Where the damage began.
        pos: u64,
        /// Why the word there is not an event.
        why: &'static str,
        /// Events lost to it.
        count: u64,
    },
    /// The ring is corrupt at position `pos`.
    Corrupt(u64, &'static str),
}

/// Why the words at a position are not a deliverable event.
enum Shape {
    /// Padding of this many words.
    Padding(usize),
    /// An event of this many words (checksum not yet verified).
    Event(usize),
    /// Neither.
    Bad(&'static str),
}

/// The shape the header word `h` at offset `off` of a ring of `size`
/// words, at position `pos` with the tail at `tail`, claims.
fn shape(h: EventHeader, off: u64, size: u64, pos: u64, tail: u64) -> Shape {
    let len = h.len as u64;
    match Category::from_u8(h.category) {
        None => Shape::Bad("unknown event category"),
        Some(Category::Padding) => {
            if len == 0 || off + len != size || h.kind != 0 || h.seq_low != 0 {
                Shape::Bad("malformed padding")
            } else if pos + len > tail {
                Shape::Bad("padding runs past the tail")
            } else {
                Shape::Padding(h.len)
            }
        }
        Some(_) => {
            if h.len < MIN_EVENT_WORDS {
                Shape::Bad("event shorter than its header and checksum")
            } else if off + len > size {
                Shape::Bad("event runs past the end of the ring")
            } else if pos + len > tail {
                Shape::Bad("event runs past the tail")
            } else {
                Shape::Event(h.len)
            }
        }
    }
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
        let off = pos & ring.mask;
        let h = EventHeader::decode(ring.data[off as usize].load(Ordering::Relaxed));
        let shape = shape(h, off, size, pos, tail);
        buf.clear();
        if let Shape::Event(len) | Shape::Padding(len) = shape {
            let off = off as usize;
            buf.extend(
                ring.data[off..off + len]
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
        // The copy is what is verified and delivered; `buf[0]` is the
        // header word decoded above (a torn copy was discarded).
        let why = match shape {
            Shape::Bad(why) => why,
            Shape::Padding(len) => {
                if st.pending.is_some() {
                    // Padding is no proof of where events begin again.
                    st.pos += 1;
                } else {
                    st.pos += len as u64;
                }
                continue;
            }
            Shape::Event(len) => {
                let (words, sum) = buf.split_at(len - 1);
                if checksum(words) != sum[0] {
                    "bad checksum"
                } else {
                    match full_seq(EventHeader::decode(buf[0]).seq_low, tail_seq) {
                        Some(seq) if seq >= st.expected => {
                            let gap = seq - st.expected;
                            if let Some((at, why)) = st.settle_damage(gap) {
                                f(Item::Damaged {
                                    pos: at,
                                    why,
                                    count: gap,
                                });
                            } else if gap > 0 {
                                st.lost += gap;
                                f(Item::Lost(gap));
                            }
                            st.expected = seq + 1;
                            st.delivered += 1;
                            st.pos += len as u64;
                            f(Item::Event(seq, buf));
                            continue;
                        }
                        Some(_) => "sequence number went backwards",
                        None => "sequence number beyond the ring's count",
                    }
                }
            }
        };
        // Damage: remember where it began, and look for the next event one
        // word further on.
        if st.pending.is_none() {
            st.pending = Some((pos, why));
        }
        st.pos += 1;
    }
}
