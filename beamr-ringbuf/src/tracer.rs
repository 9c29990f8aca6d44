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
//! A `call` event, which can fire on every function call, skips the event
//! (`Tracer::fire_call`): its three words go straight into the
//! scheduler's ring.
//!
//! Event layouts are in [`crate::codec`].

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use beamr_core::term::Term;
use beamr_trace::{CallArgs, Decision, Mfa, TraceEvent, TraceTag, Tracee, Tracer};

use crate::clock;
use crate::codec::{self, SlotsOut};
use crate::layout::Category;
use crate::recorder::Recorder;
use crate::ring::Ring;

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
        let kind = event.tag as u16;
        let words = codec::payload_words(event.tag);
        self.in_ring(event.scheduler_id, |ring| {
            ring.write_with(Category::Trace, kind, event.timestamp_ns, words, |slots| {
                self.encode(event, slots)
            })
        })
    }

    /// Encodes `event`'s payload into `slots`, its ring's. Out of line:
    /// inlined into the ring's write, the encoder's many arms cost the
    /// write more than the call does (about 12 instructions a message
    /// event, measured).
    #[inline(never)]
    fn encode(&self, event: &TraceEvent<'_>, slots: &[AtomicU64]) {
        let mut out = SlotsOut::new(slots);
        codec::encode_to(event, &mut out, |a| self.recorder.intern_atom(a));
        debug_assert_eq!(
            out.stored(),
            codec::payload_words(event.tag),
            "{:?}'s layout",
            event.tag
        );
    }

    /// Writes the `call` event of `tracee` calling `mfa` at `timestamp_ns`
    /// on scheduler `scheduler_id`, paused or not (the caller has just
    /// asked): the words [`RingTracer::write`] writes for it, with no
    /// event to encode. Inlined into `fire_call`, its one caller.
    #[inline(always)]
    fn write_call(&self, scheduler_id: u32, tracee: Tracee, mfa: &Mfa, timestamp_ns: u64) -> bool {
        let words = codec::call_words(tracee, *mfa, |a| self.recorder.intern_atom(a));
        self.in_ring(scheduler_id, |ring| {
            let kind = TraceTag::Call as u16;
            ring.write_with(Category::Trace, kind, timestamp_ns, words.len(), |slots| {
                for (slot, w) in slots.iter().zip(words) {
                    slot.store(w, Ordering::Relaxed);
                }
            })
        })
    }

    /// Runs `write` on the ring of scheduler `scheduler_id`: its own, or
    /// the shared ring 0 under the spin lock. Inlined into each writer, so
    /// that the ring's write is inlined there too: the shared ring differs
    /// only in the lock around it.
    #[inline(always)]
    fn in_ring(&self, scheduler_id: u32, write: impl FnOnce(Ring<'_>) -> bool) -> bool {
        let s = scheduler_id as usize;
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
        let ok = write(self.recorder.ring(if shared { 0 } else { s }));
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

    /// `enabled`, then the call's words straight into the ring: the same
    /// answer and the same words as the protocol's two steps, with no
    /// event built. The arguments and the match specification's term are
    /// not recorded (see [`crate::codec`]).
    #[inline]
    fn fire_call(
        &self,
        tracee: Tracee,
        scheduler_id: u32,
        mfa: &Mfa,
        _args: CallArgs<'_>,
        _match_spec_result: Option<Term>,
    ) -> Decision {
        let decision = self.enabled(TraceTag::Call, tracee);
        if decision == Decision::Trace {
            self.write_call(scheduler_id, tracee, mfa, clock::now_ns());
        }
        decision
    }
}
