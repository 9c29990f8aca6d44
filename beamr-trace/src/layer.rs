//! [`Layered`]: the one way to wrap a tracer in another.
//!
//! A wrapper changes one or two things about the tracer it wraps (limits
//! on what passes, the name `erlang:trace_info/2` shows) and must pass
//! everything else through, every method of [`Tracer`] included, its
//! one-call paths ([`Tracer::fire_call`], [`Tracer::fire_return`]) above
//! all: a wrapper that left one to the trait's default would send the
//! inner tracer's fast path through three dynamic calls and an event.
//! So no wrapper implements `Tracer` by hand: each is a [`Layer`], the
//! part it changes, and [`Layered`] implements `Tracer` once for all of
//! them, forwarding every method. `tests/forwarding.rs` fails when a
//! method of the trait is missing here or in `forward_tracer!` (the
//! smart pointers' impls in [`crate::tracer`]).

use beamr_core::term::Term;

use crate::context::TraceContext;
use crate::event::{CallArgs, Mfa, TraceEvent};
use crate::tag::TraceTag;
use crate::tracee::Tracee;
use crate::tracer::{Decision, Tracer};

/// What a wrapper changes about the tracer it wraps; the rest passes.
pub trait Layer: Send + Sync {
    /// True when [`Layer::admit`] can refuse an event. A layer that never
    /// does keeps the default, false, and the inner tracer's one-call
    /// paths are then called without asking anything first.
    const GATES: bool = false;

    /// Whether an event the inner tracer wants (its `enabled` said
    /// [`Decision::Trace`]) passes; a refused one is
    /// [`Decision::Discard`]. Called only when [`Layer::GATES`].
    fn admit(&self, tag: TraceTag, tracee: Tracee) -> bool {
        let _ = (tag, tracee);
        true
    }

    /// The name `erlang:trace_info(Pid, tracer)` shows in place of the
    /// inner tracer's; `None` (the default) keeps the inner tracer's.
    fn name(&self) -> Option<Term> {
        None
    }
}

/// `inner` wrapped in `layer`: a [`Tracer`] that is `inner` with what
/// `layer` changes.
pub struct Layered<L, T: ?Sized> {
    layer: L,
    inner: T,
}

impl<L, T> Layered<L, T> {
    /// `inner` wrapped in `layer`.
    pub fn new(layer: L, inner: T) -> Layered<L, T> {
        Layered { layer, inner }
    }
}

impl<L, T: ?Sized> Layered<L, T> {
    /// The wrapper's own part.
    pub fn layer(&self) -> &L {
        &self.layer
    }

    /// The tracer wrapped.
    pub fn inner(&self) -> &T {
        &self.inner
    }
}

impl<L: Layer, T: Tracer + ?Sized> Layered<L, T> {
    /// `decision` (the inner tracer's answer for `tag`) with the layer's
    /// admission applied.
    #[inline]
    fn gate(&self, decision: Decision, tag: TraceTag, tracee: Tracee) -> Decision {
        match decision {
            Decision::Trace if L::GATES && !self.layer.admit(tag, tracee) => Decision::Discard,
            other => other,
        }
    }

    /// For a one-call path of a gating layer: `None` when the event is
    /// to go to the inner tracer, else the answer to give instead. The
    /// inner tracer is asked first, so that only what it wants counts
    /// against the layer (its one-call path then asks it again).
    #[inline]
    fn refused(&self, tag: TraceTag, tracee: Tracee) -> Option<Decision> {
        if !L::GATES {
            return None;
        }
        match self.gate(self.inner.enabled(tag, tracee), tag, tracee) {
            Decision::Trace => None,
            other => Some(other),
        }
    }
}

impl<L: Layer, T: Tracer + ?Sized> Tracer for Layered<L, T> {
    fn enabled(&self, tag: TraceTag, tracee: Tracee) -> Decision {
        self.gate(self.inner.enabled(tag, tracee), tag, tracee)
    }
    fn trace(&self, event: &TraceEvent<'_>) {
        self.inner.trace(event)
    }
    fn trace_status(&self, tracee: Tracee) -> Decision {
        self.inner.trace_status(tracee)
    }
    fn reads_clock(&self) -> bool {
        self.inner.reads_clock()
    }
    fn monitor(&self, watcher: Tracee, target: Term, reference: Term, timestamp_ns: u64) {
        self.inner.monitor(watcher, target, reference, timestamp_ns)
    }
    fn trace_send(&self, event: &TraceEvent<'_>) -> Option<TraceContext> {
        self.inner.trace_send(event)
    }
    fn trace_receive(&self, event: &TraceEvent<'_>, carried: Option<TraceContext>) {
        self.inner.trace_receive(event, carried)
    }
    fn tracer_term(&self) -> Option<Term> {
        self.layer.name().or_else(|| self.inner.tracer_term())
    }
    fn fire_call(
        &self,
        tracee: Tracee,
        scheduler_id: u32,
        mfa: &Mfa,
        args: CallArgs<'_>,
        match_spec_result: Option<Term>,
    ) -> Decision {
        if let Some(decision) = self.refused(TraceTag::Call, tracee) {
            return decision;
        }
        self.inner
            .fire_call(tracee, scheduler_id, mfa, args, match_spec_result)
    }
    fn fire_return(&self, tracee: Tracee, scheduler_id: u32, mfa: &Mfa, value: Term) -> Decision {
        if let Some(decision) = self.refused(TraceTag::ReturnFrom, tracee) {
            return decision;
        }
        self.inner.fire_return(tracee, scheduler_id, mfa, value)
    }
}

/// The layer that changes nothing: `Layered<Plain, T>` is `T`.
pub struct Plain;

impl Layer for Plain {}
