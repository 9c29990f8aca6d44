//! The [`Tracer`] trait every trace backend implements, its [`Decision`], and
//! [`fire`], the protocol a probe site is to follow.
//!
//! beamr-sched's probe sites (its `trace` module) keep the protocol below;
//! [`fire`] implements steps 2 and 3.
//!
//! # Protocol
//!
//! 1. The probe site checks its flag word (one load and a branch: the
//!    process's trace flags); when nothing traces the tracee it stops there
//!    and no tracer is called.
//! 2. It calls [`Tracer::enabled`] with the tag and tracee, before building
//!    anything.
//!    - [`Decision::Discard`]: nothing more happens for this event.
//!    - [`Decision::Remove`]: nothing more happens, and the runtime is to
//!      take this tracer off the tracee (clear its flags for this tracer);
//!      [`fire`] returns the decision so that its caller can.
//!    - [`Decision::Trace`]: go on.
//! 3. It builds a [`TraceEvent`] that borrows the tracee's terms and calls
//!    [`Tracer::trace`] with it, then drops the event.
//!
//! A `call` event, the one probe that can fire on every function call,
//! takes steps 2 and 3 in one call of [`Tracer::fire_call`], whose default
//! is exactly them; a backend that can record a call without an event (the
//! ring buffer) overrides it and keeps their order and answers.
//!
//! Before any of that, when a tracer is set on a tracee (`erlang:trace/3`
//! setting flags with it), the runtime asks [`Tracer::trace_status`]
//! (`erl_tracer`'s `enabled(trace_status, State, Tracee)`): on
//! [`Decision::Remove`] the flags are not set.
//!
//! # Contract for implementors
//!
//! - Both methods are called on the tracee's scheduler thread, in the middle
//!   of running it (or of a BIF, or of a collection), with one exception: a
//!   message that a sender puts straight into the mailbox of a receiver
//!   that is waiting (no scheduler holds it) fires the receiver's
//!   `'receive'` on the sender's thread, with the receiver's body locked
//!   and the sender's scheduler id, because the receiver runs nowhere then
//!   and the event must still follow its `send`. They must not block:
//!   no waiting on locks another thread holds for long, no I/O that can
//!   stall, no waiting for a reader. A backend that cannot keep up drops the
//!   event and counts it.
//! - They may be called from every scheduler thread at once, hence
//!   `Send + Sync`.
//! - [`TraceEvent`]'s terms live on the tracee's heap and are valid only
//!   during the call. A backend copies what it keeps (onto a heap of its own,
//!   into a ring buffer, into a string) and never stores a borrowed
//!   [`Term`](beamr_core::term::Term).
//! - They must not send to, link to or otherwise signal the tracee (as
//!   `erl_tracer` forbids), which could recurse into the probe.

use std::sync::Arc;

use beamr_core::term::Term;

use crate::clock;
use crate::context::TraceContext;
use crate::event::{CallArgs, Mfa, Payload, TraceEvent};
use crate::tag::TraceTag;
use crate::tracee::Tracee;

/// What a tracer wants done with an event it was asked about.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Decision {
    /// Build the event and call [`Tracer::trace`].
    Trace,
    /// Skip this event.
    Discard,
    /// Skip this event and ask for this tracer to be taken off the tracee
    /// (the caller of [`fire`] acts on it).
    Remove,
}

/// A trace backend, as `erl_tracer` is in the BEAM.
pub trait Tracer: Send + Sync {
    /// Called first, before any event is built: Trace, Discard or Remove
    /// (Remove asks to be taken off the tracee).
    fn enabled(&self, tag: TraceTag, tracee: Tracee) -> Decision;
    /// Called in the context of the traced process, on its scheduler thread
    /// (but for the direct-delivery `'receive'` the contract above names).
    fn trace(&self, event: &TraceEvent<'_>);
    /// Asked when this tracer is set on `tracee` (`erlang:trace/3` with
    /// flags to set), as `erl_tracer`'s `enabled/3` is asked with the tag
    /// `trace_status`: [`Decision::Remove`] (a tracer that can take no
    /// events, such as one whose process is gone) leaves the tracee
    /// untraced by it. The default says [`Decision::Trace`].
    fn trace_status(&self, tracee: Tracee) -> Decision {
        let _ = tracee;
        Decision::Trace
    }
    /// False if the tracer never reads an event's `timestamp_ns` (the
    /// message backend without a timestamp flag): a probe then does not
    /// read the clock for it, and the event's time is 0. The default says
    /// true.
    fn reads_clock(&self) -> bool {
        true
    }
    /// A monitor was set: `watcher` (traced with `procs`) monitors `target`
    /// with `reference`, at `timestamp_ns`. The BEAM has no trace tag for
    /// this, so `enabled` is not asked; backends that report monitors
    /// (OpenTelemetry's `process.monitored` record) implement it, the
    /// others keep this default, which ignores it. The terms are borrowed
    /// as an event's are.
    fn monitor(&self, watcher: Tracee, target: Term, reference: Term, timestamp_ns: u64) {
        let _ = (watcher, target, reference, timestamp_ns);
    }
    /// A `send` or `send_to_non_existing_process` event (called instead of
    /// [`Tracer::trace`] for them, after `enabled` said Trace). Returns the
    /// context the message is to carry to its receiver's `'receive'`
    /// event; the default traces the event and carries nothing.
    fn trace_send(&self, event: &TraceEvent<'_>) -> Option<TraceContext> {
        self.trace(event);
        None
    }
    /// A `'receive'` event of a message that carried `carried` from its
    /// send (called instead of [`Tracer::trace`] for it). The default
    /// ignores the context.
    fn trace_receive(&self, event: &TraceEvent<'_>, carried: Option<TraceContext>) {
        let _ = carried;
        self.trace(event);
    }
    /// The tracer as `erlang:trace_info(Pid, tracer)` names it: the
    /// message backend's tracer process or port, a tracer module's
    /// `{Module, State}` (a term the tracer keeps on a heap of its own,
    /// valid while it lives: the caller copies it); `None` (the default)
    /// for a backend that Erlang code cannot name.
    fn tracer_term(&self) -> Option<Term> {
        None
    }
    /// Steps 2 and 3 of the protocol for a `call` event of `tracee` on
    /// scheduler `scheduler_id`: its `Payload::Call` fields are `mfa`,
    /// `args` and `match_spec_result` (`mfa` borrowed, as the runtime holds
    /// it in its pattern table). The default asks
    /// [`Tracer::enabled`] and, on [`Decision::Trace`], builds the event
    /// (stamped with [`clock::now_ns`] if [`Tracer::reads_clock`]) and
    /// hands it to [`Tracer::trace`]; it returns the decision. A backend
    /// that overrides it gives the same answers and records the same
    /// event, in one dynamic call instead of three.
    fn fire_call(
        &self,
        tracee: Tracee,
        scheduler_id: u32,
        mfa: &Mfa,
        args: CallArgs<'_>,
        match_spec_result: Option<Term>,
    ) -> Decision {
        let mfa = *mfa;
        fire(self, TraceTag::Call, tracee, || {
            let at = if self.reads_clock() {
                clock::now_ns()
            } else {
                0
            };
            let payload = Payload::Call {
                mfa,
                args,
                match_spec_result,
            };
            TraceEvent::new(TraceTag::Call, tracee, at, scheduler_id, payload)
        })
    }
    /// [`Tracer::fire_call`] for a `return_from` event: `tracee`'s call of
    /// `mfa` returned `value`. The default asks, builds and hands over as
    /// `fire_call`'s does; a backend that overrides it gives the same
    /// answers and records the same event.
    fn fire_return(&self, tracee: Tracee, scheduler_id: u32, mfa: &Mfa, value: Term) -> Decision {
        let mfa = *mfa;
        fire(self, TraceTag::ReturnFrom, tracee, || {
            let at = if self.reads_clock() {
                clock::now_ns()
            } else {
                0
            };
            let payload = Payload::Return { mfa, value };
            TraceEvent::new(TraceTag::ReturnFrom, tracee, at, scheduler_id, payload)
        })
    }
}

/// Runs steps 2 and 3 of the protocol for one probe: asks `tracer` whether it
/// wants `tag` from `tracee` and, if it does, builds the event with `build`
/// and hands it over with [`Tracer::trace`]. Returns the tracer's decision,
/// so the caller can act on [`Decision::Remove`].
#[inline]
pub fn fire<'a, T, F>(tracer: &T, tag: TraceTag, tracee: Tracee, build: F) -> Decision
where
    T: Tracer + ?Sized,
    F: FnOnce() -> TraceEvent<'a>,
{
    fire_with(tracer, tag, tracee, build, |t, e| t.trace(e)).0
}

/// [`fire`] with the last step chosen by the probe: `hand` gives the event
/// to the tracer (with [`Tracer::trace_send`] for a send, say) and its
/// result comes back beside the decision (`None` unless the tracer wanted
/// the event).
#[inline]
pub fn fire_with<'a, T, F, H, R>(
    tracer: &T,
    tag: TraceTag,
    tracee: Tracee,
    build: F,
    hand: H,
) -> (Decision, Option<R>)
where
    T: Tracer + ?Sized,
    F: FnOnce() -> TraceEvent<'a>,
    H: FnOnce(&T, &TraceEvent<'a>) -> R,
{
    let decision = tracer.enabled(tag, tracee);
    if decision != Decision::Trace {
        return (decision, None);
    }
    let event = build();
    debug_assert_eq!(
        event.tag, tag,
        "a probe must build the event it asked about"
    );
    (decision, Some(hand(tracer, &event)))
}

/// `Tracer` for smart pointers to tracers: every method forwards, so a
/// method added to the trait is added here once for both. Wrappers that
/// change something are [`Layered`](crate::layer::Layered), which forwards
/// the rest; `tests/forwarding.rs` fails when either misses a method.
macro_rules! forward_tracer {
    ($($pointer:ident),*) => {$(
        impl<T: Tracer + ?Sized> Tracer for $pointer<T> {
            fn enabled(&self, tag: TraceTag, tracee: Tracee) -> Decision {
                (**self).enabled(tag, tracee)
            }
            fn trace(&self, event: &TraceEvent<'_>) {
                (**self).trace(event)
            }
            fn trace_status(&self, tracee: Tracee) -> Decision {
                (**self).trace_status(tracee)
            }
            fn reads_clock(&self) -> bool {
                (**self).reads_clock()
            }
            fn monitor(&self, watcher: Tracee, target: Term, reference: Term, timestamp_ns: u64) {
                (**self).monitor(watcher, target, reference, timestamp_ns)
            }
            fn trace_send(&self, event: &TraceEvent<'_>) -> Option<TraceContext> {
                (**self).trace_send(event)
            }
            fn trace_receive(&self, event: &TraceEvent<'_>, carried: Option<TraceContext>) {
                (**self).trace_receive(event, carried)
            }
            fn tracer_term(&self) -> Option<Term> {
                (**self).tracer_term()
            }
            fn fire_call(
                &self,
                tracee: Tracee,
                scheduler_id: u32,
                mfa: &Mfa,
                args: CallArgs<'_>,
                match_spec_result: Option<Term>,
            ) -> Decision {
                (**self).fire_call(tracee, scheduler_id, mfa, args, match_spec_result)
            }
            fn fire_return(
                &self,
                tracee: Tracee,
                scheduler_id: u32,
                mfa: &Mfa,
                value: Term,
            ) -> Decision {
                (**self).fire_return(tracee, scheduler_id, mfa, value)
            }
        }
    )*};
}

forward_tracer!(Arc, Box);
