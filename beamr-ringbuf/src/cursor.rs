//! [`Cursor`]: reads a trace file, in the writing process or another, while
//! it is written or after its writer is gone.
//!
//! A cursor never blocks or slows a writer: it only loads from the mapping.
//! Each [`Cursor::poll`] reads what every ring holds past the cursor's
//! position and hands it to a [`Callbacks`]: complete events, and counts of
//! events lost to overwriting. For every ring, at every moment,
//! `delivered + lost` is the number of events the writer wrote up to the
//! cursor's position (see [`crate::reader`]); [`Cursor::finish`] closes the
//! books for a file whose writer is gone.

use std::path::Path;
use std::sync::atomic::Ordering;

use crate::codec::{self, DecodeError, TraceRecord};
use crate::error::Error;
use crate::layout::{
    file_header, Category, EventHeader, Geometry, EVENT_PREFIX_WORDS, EVENT_SUFFIX_WORDS,
    FLAG_PAUSED,
};
use crate::reader::{poll_ring, Item, RingState};
use crate::region::Region;
use crate::ring::Ring;
use crate::strings::StringTable;

/// One event as read from a ring.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Event<'c> {
    /// The ring it was read from.
    pub ring: usize,
    /// Its sequence number in that ring (0, 1, 2, ... as written).
    pub seq: u64,
    /// Its timestamp in nanoseconds.
    pub timestamp_ns: u64,
    /// Its category.
    pub category: Category,
    /// Its kind (a `TraceTag` number for [`Category::Trace`]).
    pub kind: u16,
    /// The words after the timestamp, up to the checksum (verified).
    pub payload: &'c [u64],
}

impl Event<'_> {
    /// Decodes a [`Category::Trace`] event; `None` for other categories.
    pub fn trace(&self) -> Option<Result<TraceRecord, DecodeError>> {
        (self.category == Category::Trace).then(|| codec::decode(self.kind, self.payload))
    }
}

/// What a cursor delivers to.
pub trait Callbacks {
    /// A complete event. `strings` resolves the atom keys in it.
    fn event(&mut self, event: &Event<'_>, strings: &StringTable);
    /// `count` events of `ring` were overwritten (or never completed) before
    /// they could be read.
    fn lost(&mut self, ring: usize, count: u64);
    /// The words of `ring` from position `pos` on were damaged (`why`: the
    /// first check that failed there, e.g. a bad checksum) and held `count`
    /// events, none of which is delivered; reading goes on after them. The
    /// events are lost: the default reports them through
    /// [`Callbacks::lost`], so that delivered + lost = written holds.
    fn damaged(&mut self, ring: usize, pos: u64, count: u64, why: &str) {
        let _ = (pos, why);
        self.lost(ring, count);
    }
    /// `ring` is corrupt at word position `pos` (its header cannot be
    /// believed); it is not read further and its unread events are reported
    /// lost by [`Cursor::finish`].
    fn corrupt(&mut self, ring: usize, pos: u64, why: &str) {
        let _ = (ring, pos, why);
    }
}

/// Facts from a file's header.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct FileInfo {
    /// Number of rings.
    pub ring_count: usize,
    /// Words per ring.
    pub ring_words: usize,
    /// OS process id of the writer.
    pub writer_pid: u64,
    /// Creation time, nanoseconds since the Unix epoch.
    pub created_unix_ns: u64,
    /// The writer's monotonic clock at creation.
    pub created_monotonic_ns: u64,
    /// True while the writer is paused.
    pub paused: bool,
    /// Names that did not fit in the string table.
    pub strings_dropped: u64,
    /// Events the writer's tracer dropped by its limits, unwritten.
    pub events_dropped: u64,
}

/// A reader of one trace file.
pub struct Cursor {
    region: Region,
    geometry: Geometry,
    states: Vec<RingState>,
    strings: StringTable,
    buf: Vec<u64>,
}

impl Cursor {
    /// Opens `path`, checking its header. Reading starts at the beginning:
    /// events overwritten before the first poll are reported lost.
    pub fn open(path: impl AsRef<Path>) -> Result<Cursor, Error> {
        let (region, geometry) = crate::file::open(path.as_ref())?;
        let mut c = Cursor {
            states: vec![RingState::default(); geometry.ring_count],
            region,
            geometry,
            strings: StringTable::default(),
            buf: Vec::with_capacity(256),
        };
        c.strings.refresh(c.region.words(), &c.geometry);
        Ok(c)
    }

    /// The header's facts.
    pub fn info(&self) -> FileInfo {
        let w = self.region.words();
        let get = |i: usize| w[i].load(Ordering::Relaxed);
        FileInfo {
            ring_count: self.geometry.ring_count,
            ring_words: self.geometry.ring_words,
            writer_pid: get(file_header::WRITER_PID),
            created_unix_ns: get(file_header::CREATED_UNIX_NS),
            created_monotonic_ns: get(file_header::CREATED_MONOTONIC_NS),
            paused: get(file_header::FLAGS) & FLAG_PAUSED != 0,
            strings_dropped: get(file_header::STRINGS_DROPPED),
            events_dropped: get(file_header::EVENTS_DROPPED),
        }
    }

    /// Number of rings.
    pub fn ring_count(&self) -> usize {
        self.geometry.ring_count
    }

    /// The names read so far.
    pub fn strings(&self) -> &StringTable {
        &self.strings
    }

    /// Progress in ring `i` (delivered, lost, position).
    pub fn state(&self, i: usize) -> Option<RingState> {
        self.states.get(i).copied()
    }

    /// Events the writer of ring `i` has written so far, per the ring header.
    pub fn written(&self, i: usize) -> u64 {
        if i >= self.geometry.ring_count {
            return 0;
        }
        Ring::new(self.region.words(), &self.geometry, i)
            .tail_seq
            .load(Ordering::Acquire)
    }

    /// Delivers what every ring holds past the cursor, ring by ring (each
    /// ring in write order). Returns the number of events delivered.
    pub fn poll(&mut self, cb: &mut impl Callbacks) -> usize {
        let mut delivered = 0;
        for i in 0..self.geometry.ring_count {
            let ring = Ring::new(self.region.words(), &self.geometry, i);
            let strings = &mut self.strings;
            let (words, g) = (self.region.words(), &self.geometry);
            poll_ring(
                &ring,
                &mut self.states[i],
                &mut self.buf,
                |item| match item {
                    Item::Lost(n) => cb.lost(i, n),
                    Item::Damaged { pos, why, count } => cb.damaged(i, pos, count, why),
                    Item::Corrupt(pos, why) => cb.corrupt(i, pos, why),
                    Item::Event(seq, words_) => {
                        // Names are published before the events that use them.
                        strings.refresh(words, g);
                        delivered += 1;
                        cb.event(&to_event(i, seq, words_), strings);
                    }
                },
            );
        }
        delivered
    }

    /// Delivers what every ring holds past the cursor, merged into timestamp
    /// order (a k-way merge: each ring's own order is kept). Lost counts are
    /// delivered first. Events that arrive after this call started are left
    /// for the next one, so two polls' events may interleave in time.
    pub fn poll_merged(&mut self, cb: &mut impl Callbacks) -> usize {
        // (timestamp, seq, start in arena, len) per ring.
        let mut per_ring: Vec<Vec<(u64, u64, usize, usize)>> =
            vec![Vec::new(); self.geometry.ring_count];
        let mut arena: Vec<u64> = Vec::new();
        let mut lost: Vec<(usize, u64)> = Vec::new();
        let mut corrupt: Vec<(usize, u64, &'static str)> = Vec::new();
        let mut damaged: Vec<(usize, u64, u64, &'static str)> = Vec::new();
        for (i, list) in per_ring.iter_mut().enumerate() {
            let ring = Ring::new(self.region.words(), &self.geometry, i);
            poll_ring(
                &ring,
                &mut self.states[i],
                &mut self.buf,
                |item| match item {
                    Item::Lost(n) => lost.push((i, n)),
                    Item::Damaged { pos, why, count } => damaged.push((i, pos, count, why)),
                    Item::Corrupt(pos, why) => corrupt.push((i, pos, why)),
                    Item::Event(seq, w) => {
                        list.push((w[1], seq, arena.len(), w.len()));
                        arena.extend_from_slice(w);
                    }
                },
            );
        }
        self.strings.refresh(self.region.words(), &self.geometry);
        for (i, pos, why) in corrupt {
            cb.corrupt(i, pos, why);
        }
        for (i, pos, count, why) in damaged {
            cb.damaged(i, pos, count, why);
        }
        for (i, n) in lost {
            cb.lost(i, n);
        }
        let mut next = vec![0usize; per_ring.len()];
        let mut delivered = 0;
        loop {
            let mut best: Option<(u64, usize)> = None;
            for (i, list) in per_ring.iter().enumerate() {
                if let Some(&(ts, ..)) = list.get(next[i]) {
                    if best.is_none_or(|(b, _)| ts < b) {
                        best = Some((ts, i));
                    }
                }
            }
            let Some((_, i)) = best else { break };
            let (_, seq, start, len) = per_ring[i][next[i]];
            next[i] += 1;
            delivered += 1;
            cb.event(&to_event(i, seq, &arena[start..start + len]), &self.strings);
        }
        delivered
    }

    /// Polls once more, then reports every event the writers counted but the
    /// cursor did not deliver as lost: for a file whose writer is gone
    /// (finished or crashed), after which `delivered + lost == written` for
    /// every ring. Do not call it while a writer is still running.
    ///
    /// A ring read to its tail with no damage pending must account for its
    /// count of events: the last event read is the last one counted (or the
    /// one before, when the writer died between counting an event and
    /// publishing it). A count beyond that cannot be believed: the ring is
    /// reported corrupt ([`Callbacks::corrupt`]), not its events lost.
    pub fn finish(&mut self, cb: &mut impl Callbacks) -> usize {
        let n = self.poll(cb);
        for i in 0..self.geometry.ring_count {
            let written = self.written(i);
            let ring = Ring::new(self.region.words(), &self.geometry, i);
            let tail = ring.tail.load(Ordering::Acquire);
            let st = &mut self.states[i];
            let missing = written.saturating_sub(st.expected);
            if let Some((pos, why)) = st.settle_damage(missing) {
                st.expected = written;
                cb.damaged(i, pos, missing, why);
            } else if missing > 1 && !st.broken && st.pos >= tail {
                st.broken = true;
                let why = format!(
                    "the ring header's event count (tail_seq) is {written}, \
                     but its events end at number {}",
                    st.expected
                );
                cb.corrupt(i, tail, &why);
            } else if missing > 0 {
                st.lost += missing;
                st.expected = written;
                cb.lost(i, missing);
            }
        }
        n
    }
}

fn to_event(ring: usize, seq: u64, words: &[u64]) -> Event<'_> {
    let h = EventHeader::decode(words[0]);
    Event {
        ring,
        seq,
        timestamp_ns: words[1],
        category: Category::from_u8(h.category).unwrap_or(Category::User),
        kind: h.kind,
        payload: &words[EVENT_PREFIX_WORDS..words.len() - EVENT_SUFFIX_WORDS],
    }
}
