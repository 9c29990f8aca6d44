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
//! `call` and `return_from` events, which can fire on every function call
//! and return, skip the event (`Tracer::fire_call`, `Tracer::fire_return`):
//! their words go straight into the scheduler's ring, and the names of
//! their function are checked against the ring's [`KnownMfas`] rather than
//! the string table's two lookups. From a thread with no ring of its own
//! they take the event path, as every other event.
//!
//! Event layouts are in [`crate::codec`].

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};

use beamr_core::term::Term;
use beamr_trace::{CallArgs, Decision, Mfa, Payload, TraceEvent, TraceTag, Tracee, Tracer};

use crate::clock;
use crate::codec;
use crate::layout::Category;
use crate::recorder::Recorder;
use crate::ring::Ring;
use crate::strings;

/// A [`Tracer`] that records into a [`Recorder`]'s rings.
pub struct RingTracer {
    recorder: Recorder,
    shared_lock: AtomicBool,
    /// One bit per `TraceTag` number: 1 = record.
    tag_mask: AtomicU32,
    /// Per ring, the functions its `call` events named last.
    known: Box<[KnownMfas]>,
}

/// Slots of [`KnownMfas`]: a function lands in the slot of its name's
/// atom index modulo this.
const KNOWN_MFAS: usize = 8;

/// An empty slot of [`KnownMfas`]: no module and function key pair is
/// this (atom indices are below `beamr_core::atom::capacity()`).
const UNKNOWN: u64 = u64::MAX;

/// One ring's cache of the module and function names of its `call`
/// events that are in the string table: a direct-mapped set of MFA words
/// (`module key | function key << 32`, the event's first MFA word), one
/// cache line per ring, so that a traced call of a function the ring has
/// seen makes one comparison instead of two string-table lookups.
///
/// Only the ring's writer, its scheduler, reads and writes it (the shared
/// ring 0 writes calls through the event path and leaves its own unused):
/// a word it finds there it stored itself after interning both names, so
/// its own program order puts the names' records before the events it
/// publishes, and relaxed accesses suffice. A name interned is never
/// removed, so a slot never goes stale.
#[repr(align(64))]
struct KnownMfas([AtomicU64; KNOWN_MFAS]);

impl RingTracer {
    /// A tracer over `recorder`, recording every tag.
    pub fn new(recorder: Recorder) -> RingTracer {
        let known = (0..recorder.ring_count())
            .map(|_| KnownMfas(std::array::from_fn(|_| AtomicU64::new(UNKNOWN))))
            .collect();
        RingTracer {
            recorder,
            shared_lock: AtomicBool::new(false),
            tag_mask: AtomicU32::new(u32::MAX),
            known,
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

    /// Writes an event of `category` (not a trace event) with `payload`
    /// from a thread that is not a scheduler, stamped now: into ring 0,
    /// under its lock. False when paused, for padding, or when the payload
    /// is too long.
    pub fn record_other(&self, category: Category, kind: u16, payload: &[u64]) -> bool {
        if category == Category::Padding || self.recorder.is_paused() {
            return false;
        }
        let (ring, _shared) = self.ring_for(0);
        ring.write(category, kind, clock::now_ns(), payload)
    }

    /// Writes `event`, paused or not (the caller has just asked),
    /// encoding it straight into its ring's slots. One function for every
    /// caller, holding the ring's write inlined.
    #[inline(never)]
    fn write(&self, event: &TraceEvent<'_>) -> bool {
        let kind = event.tag as u16;
        let words = codec::payload_words(event.tag);
        let (ring, _shared) = self.ring_for(event.scheduler_id);
        ring.write_with(Category::Trace, kind, event.timestamp_ns, words, |out| {
            codec::encode_to(event, out, |a| self.recorder.intern_atom(a));
            debug_assert_eq!(out.stored(), words, "{:?}'s layout", event.tag);
        })
    }

    /// The one-call probes (`fire_call`, `fire_return`): `enabled`; then,
    /// from a scheduler's own ring, the event's payload `words` (their
    /// function's names keyed without interning, the MFA word second)
    /// straight into it, its names interned unless the ring named `mfa`
    /// lately ([`KnownMfas`]); from any other thread, the event of
    /// `payload` the way every event goes. Paused or filtered, nothing.
    ///
    /// `mfa`, when given, is the event's function with the index of its
    /// MFA word among `words`.
    #[inline(always)]
    fn fire_one<'p, const N: usize>(
        &self,
        tag: TraceTag,
        tracee: Tracee,
        scheduler_id: u32,
        mfa: Option<(&Mfa, usize)>,
        words: impl FnOnce() -> [u64; N],
        payload: impl FnOnce() -> Payload<'p>,
    ) -> Decision {
        let decision = self.enabled(tag, tracee);
        if decision == Decision::Trace {
            let timestamp_ns = clock::now_ns();
            let s = scheduler_id as usize;
            match self.recorder.own_ring(s) {
                Some(ring) => {
                    let words = words();
                    if let Some((mfa, at)) = mfa {
                        self.know(s, mfa, words[at]);
                    }
                    ring.write_with(Category::Trace, tag as u16, timestamp_ns, N, |out| {
                        out.put(&words)
                    })
                }
                None => {
                    let event = TraceEvent::new(tag, tracee, timestamp_ns, scheduler_id, payload());
                    self.write_shared(&event)
                }
            };
        }
        decision
    }

    /// The `spawned` event of `tracee`, child of `parent`, entering `mfa`
    /// (its arguments not recorded), for a writer that has no event to
    /// hand over (the flight recorder): from a scheduler, its words
    /// straight into the scheduler's ring, as `fire_call` writes a call.
    pub fn record_spawned(
        &self,
        tracee: Tracee,
        scheduler_id: u32,
        parent: Term,
        mfa: &Mfa,
    ) -> Decision {
        let words = || {
            let intern = |a| self.recorder.intern_atom(a);
            codec::spawned_words(tracee, parent, *mfa, strings::atom_key, intern)
        };
        let payload = || Payload::Spawn {
            other: parent,
            mfa: *mfa,
            args: &[],
        };
        let at = 2;
        self.fire_one(
            TraceTag::Spawned,
            tracee,
            scheduler_id,
            Some((mfa, at)),
            words,
            payload,
        )
    }

    /// The `exit` event of `tracee` with `reason`, the way
    /// [`RingTracer::record_spawned`] writes.
    pub fn record_exit(&self, tracee: Tracee, scheduler_id: u32, reason: Term) -> Decision {
        let words = || codec::exit_words(tracee, reason, |a| self.recorder.intern_atom(a));
        let payload = || Payload::Exit { reason };
        self.fire_one(TraceTag::Exit, tracee, scheduler_id, None, words, payload)
    }

    /// A `call` or `return_from` event from a thread with no ring of its
    /// own (see [`RingTracer::ring_for`]): written as every event is,
    /// through [`RingTracer::write`], so that the path of the scheduler
    /// rings keeps no lock (and ring 0 no cache of known functions).
    #[cold]
    #[inline(never)]
    fn write_shared(&self, event: &TraceEvent<'_>) -> bool {
        self.write(event)
    }

    /// Makes sure the names of `mfa`, whose MFA word is `key`, are in the
    /// string table, for an event of ring `ring`'s writer (see
    /// [`KnownMfas`]).
    #[inline(always)]
    fn know(&self, ring: usize, mfa: &Mfa, key: u64) {
        let known = &self.known[ring].0;
        let slot = &known[mfa.function.index() as usize % KNOWN_MFAS];
        if slot.load(Ordering::Relaxed) != key {
            self.learn(slot, mfa, key);
        }
    }

    /// Interns the names of `mfa` and remembers them in `slot`.
    #[cold]
    #[inline(never)]
    fn learn(&self, slot: &AtomicU64, mfa: &Mfa, key: u64) {
        self.recorder.intern_atom(mfa.module);
        self.recorder.intern_atom(mfa.function);
        slot.store(key, Ordering::Relaxed);
    }

    /// The ring of scheduler `scheduler_id`: its own, or the shared ring
    /// 0 with the spin lock held until the guard drops. Inlined into
    /// [`RingTracer::write`], which then has one call of the ring's write,
    /// inlined too.
    #[inline(always)]
    fn ring_for(&self, scheduler_id: u32) -> (Ring<'_>, Option<SharedRing<'_>>) {
        match self.recorder.own_ring(scheduler_id as usize) {
            Some(ring) => (ring, None),
            None => (self.recorder.ring(0), Some(self.lock_shared())),
        }
    }

    /// Takes the spin lock of ring 0: the ring of every thread that is
    /// not a scheduler (and of scheduler ids past the last ring), which
    /// several may write at once.
    #[cold]
    #[inline(never)]
    fn lock_shared(&self) -> SharedRing<'_> {
        while self
            .shared_lock
            .compare_exchange_weak(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            std::hint::spin_loop();
        }
        SharedRing(&self.shared_lock)
    }
}

/// The spin lock of ring 0, held (see [`RingTracer::ring_for`]).
struct SharedRing<'a>(&'a AtomicBool);

impl Drop for SharedRing<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
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
        args: CallArgs<'_>,
        match_spec_result: Option<Term>,
    ) -> Decision {
        let words = || codec::call_words(tracee, *mfa, strings::atom_key);
        let payload = || Payload::Call {
            mfa: *mfa,
            args,
            match_spec_result,
        };
        self.fire_one(
            TraceTag::Call,
            tracee,
            scheduler_id,
            Some((mfa, 1)),
            words,
            payload,
        )
    }

    /// `enabled`, then the `return_from` event's words straight into the
    /// scheduler's ring, as `fire_call` does for `call`.
    #[inline]
    fn fire_return(&self, tracee: Tracee, scheduler_id: u32, mfa: &Mfa, value: Term) -> Decision {
        // The value's atoms are interned as any event's are.
        let words = || {
            let intern = |a| self.recorder.intern_atom(a);
            codec::return_words(tracee, *mfa, value, strings::atom_key, intern)
        };
        let payload = || Payload::Return { mfa: *mfa, value };
        self.fire_one(
            TraceTag::ReturnFrom,
            tracee,
            scheduler_id,
            Some((mfa, 1)),
            words,
            payload,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rings_known_functions_fill_one_cache_line() {
        assert_eq!(std::mem::size_of::<KnownMfas>(), 64);
        assert_eq!(std::mem::align_of::<KnownMfas>(), 64);
    }
}
