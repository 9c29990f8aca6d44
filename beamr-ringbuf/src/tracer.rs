//! [`RingTracer`]: beamr-trace's [`Tracer`] writing every event into the
//! ring of the scheduler that produced it.
//!
//! Ring `s` belongs to scheduler `s` (schedulers are numbered from 1), so a
//! file for `N` schedulers has `N + 1` rings. Ring 0 takes events from
//! threads that are not schedulers (`scheduler_id` 0) and from scheduler ids
//! past the last ring; since several such threads may write at once, it is
//! guarded by a spin lock (an uncontended compare-and-swap; no system call).
//!
//! The scheduler rings rely on the caller's promise that only scheduler `s`
//! reports `scheduler_id == s`; that is what makes them single-writer (the
//! runtime's probes stamp each event with the id of the scheduler thread
//! that fired it).
//!
//! Event layouts are in [`crate::codec`].

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use beamr_trace::{Decision, TraceEvent, TraceTag, Tracee, Tracer};

use crate::codec::{self, SlotsOut};
use crate::layout::Category;
use crate::recorder::Recorder;

/// A [`Tracer`] that records into a [`Recorder`]'s rings.
pub struct RingTracer {
    recorder: Recorder,
    shared_lock: AtomicBool,
    /// One bit per `TraceTag` number: 1 = record.
    tag_mask: AtomicU32,
}

impl RingTracer {
    /// A tracer over `recorder`, recording every tag.
    pub fn new(recorder: Recorder) -> RingTracer {
        RingTracer {
            recorder,
            shared_lock: AtomicBool::new(false),
            tag_mask: AtomicU32::new(u32::MAX),
        }
    }

    /// The recorder (pause/resume, path, string table).
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }

    /// Takes the recorder back.
    pub fn into_recorder(self) -> Recorder {
        self.recorder
    }

    /// Records only the tags in `tags` from now on.
    pub fn set_tags(&self, tags: &[TraceTag]) {
        let mask = tags.iter().fold(0u32, |m, &t| m | 1 << (t as u16));
        self.tag_mask.store(mask, Ordering::Relaxed);
    }

    /// Writes `event` to the ring for its scheduler. Returns false when
    /// nothing was written (paused).
    pub fn record(&self, event: &TraceEvent<'_>) -> bool {
        if self.recorder.is_paused() {
            return false;
        }
        self.write(event)
    }

    /// Writes `event`, paused or not (the caller has just asked),
    /// encoding it straight into its ring's slots. One function for every
    /// caller, holding the ring's write inlined.
    #[inline(never)]
    fn write(&self, event: &TraceEvent<'_>) -> bool {
        let s = event.scheduler_id as usize;
        let kind = event.tag as u16;
        let words = codec::payload_words(event.tag);
        let fill = |slots: &[AtomicU64]| {
            let mut out = SlotsOut::new(slots);
            codec::encode_to(event, &mut out, |a| self.recorder.intern_atom(a));
            debug_assert_eq!(out.stored(), words, "{:?}'s layout", event.tag);
        };
        // One call site of `write_with`, so that it is inlined here: the
        // shared ring differs only in the lock around it.
        let shared = !(1..self.recorder.ring_count()).contains(&s);
        if shared {
            while self
                .shared_lock
                .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
            {
                std::hint::spin_loop();
            }
        }
        let ring = self.recorder.ring(if shared { 0 } else { s });
        let ok = ring.write_with(Category::Trace, kind, event.timestamp_ns, words, fill);
        if shared {
            self.shared_lock.store(false, Ordering::Release);
        }
        ok
    }
}

impl Tracer for RingTracer {
    #[inline]
    fn enabled(&self, tag: TraceTag, _tracee: Tracee) -> Decision {
        if self.recorder.is_paused()
            || self.tag_mask.load(Ordering::Relaxed) & 1 << (tag as u16) == 0
        {
            Decision::Discard
        } else {
            Decision::Trace
        }
    }

    /// `enabled` has just said yes (which checked the pause).
    fn trace(&self, event: &TraceEvent<'_>) {
        self.write(event);
    }
}
