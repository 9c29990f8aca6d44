//! One function per probe. Each tests its flag (one load, one branch) and,
//! only when the process is traced for it, builds the payload and reports
//! (see [`ProcessTrace`]). The table in the [module docs](super) says where
//! each is called.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::{
    Decision, GcInfo, Mfa, Payload, TraceContext, TraceEvent, TraceFlags, TraceTag, Tracee, Tracer,
};

use super::clock::{now_ns, scheduler_id};
use super::process_trace::report_one;
use super::{ProcessTrace, Session};

/// True if `t` wants `send` events: the one test a send site makes
/// before `signals`' message-trace path, which runs each session's
/// message pattern ([`super::Session::event_pattern`]) and reports with
/// [`message`].
#[inline(always)]
pub fn wants_send(t: &ProcessTrace) -> bool {
    t.wants(TraceFlags::SEND)
}

/// True if `t` wants `'receive'` events (as [`wants_send`]).
#[inline(always)]
pub fn wants_receive(t: &ProcessTrace) -> bool {
    t.wants(TraceFlags::RECEIVE)
}

/// `send`, `send_to_non_existing_process` or `'receive'` (`tag`) of
/// `message` for `pid`, to one session's `tracer` (its message pattern
/// passed, with the pattern's `message(Extra)` term `extra` if it gave
/// one): the tracer's answer, and for a send the trace context the
/// message is to carry (see `Tracer::trace_send`). Inlined into its
/// callers, which are cold already (they run only for traced processes).
#[inline(always)]
pub fn message(
    tracer: &(dyn Tracer + 'static),
    tag: TraceTag,
    pid: Term,
    (message, peer, extra): (Term, Option<Term>, Option<Term>),
    carried: Option<TraceContext>,
) -> (Decision, Option<TraceContext>) {
    let payload = Payload::Message {
        message,
        peer,
        match_spec_result: extra,
    };
    if tag == TraceTag::Receive {
        let (d, _) = report_one(tracer, tag, pid, payload, |t, e| {
            t.trace_receive(e, carried)
        });
        (d, None)
    } else {
        let (d, r) = report_one(tracer, tag, pid, payload, |t, e| t.trace_send(e));
        (d, r.flatten())
    }
}

/// `spawn` (`pid` spawned `other`) or `spawned` (`other` spawned `pid`)
/// (`tag`), the new process running `mfa` with `args`.
#[inline(always)]
pub fn spawn(t: &mut ProcessTrace, tag: TraceTag, pid: Term, other: Term, mfa: Mfa, args: &[Term]) {
    debug_assert!(matches!(tag, TraceTag::Spawn | TraceTag::Spawned));
    if t.wants(TraceFlags::PROCS) {
        t.report(
            TraceFlags::PROCS,
            tag,
            pid,
            Payload::Spawn { other, mfa, args },
        );
    }
}

/// `exit`: `pid` exited with `reason`.
#[inline(always)]
pub fn exit(t: &mut ProcessTrace, pid: Term, reason: Term) {
    if t.wants(TraceFlags::PROCS) {
        t.report(
            TraceFlags::PROCS,
            TraceTag::Exit,
            pid,
            Payload::Exit { reason },
        );
    }
}

/// `link`, `unlink`, `getting_linked` or `getting_unlinked` (`tag`): a link
/// between `pid` and `peer` came or went.
#[inline(always)]
pub fn link(t: &mut ProcessTrace, tag: TraceTag, pid: Term, peer: Term) {
    debug_assert!(matches!(
        tag,
        TraceTag::Link | TraceTag::Unlink | TraceTag::GettingLinked | TraceTag::GettingUnlinked
    ));
    if t.wants(TraceFlags::PROCS) {
        t.report(TraceFlags::PROCS, tag, pid, Payload::Link { peer });
    }
}

/// `call`: `pid` calls `mfa` with `args` (a function with a trace
/// pattern of `session`; the caller tests the function's flag word
/// first), with the match specification's `message` term `extra` if it
/// gave one: to `session`'s tracer if it traces the process with `call`.
/// With the `arity` flag the event carries only the arity; with `silent`,
/// nothing is sent.
#[inline(always)]
pub fn call(
    t: &mut ProcessTrace,
    session: &Session,
    pid: Term,
    mfa: Mfa,
    args: &[Term],
    extra: Option<Term>,
) {
    if t.wants(TraceFlags::CALL) {
        let _ = t.report_call(session, pid, &mfa, args, extra);
    }
}

/// `return_to`: `pid` returned to `mfa` (`None`: to no function, as at the
/// end of the process), at the end of a chain of locally traced calls of
/// `session`.
#[inline(always)]
pub fn return_to(t: &mut ProcessTrace, session: &Session, pid: Term, mfa: Option<Mfa>) {
    if t.wants(TraceFlags::CALL) && t.flags_in(session).contains(TraceFlags::RETURN_TO) {
        let payload = Payload::ReturnTo { mfa };
        t.report_in(
            session,
            TraceFlags::CALL,
            true,
            TraceTag::ReturnTo,
            pid,
            payload,
        );
    }
}

/// An event of a meta pattern (`call`, `return_from`, `exception_from`):
/// to the meta tracer `tracer`, whatever `pid`'s own flags.
#[cold]
#[inline(never)]
pub fn meta(tracer: &dyn Tracer, tag: TraceTag, pid: Term, payload: Payload<'_>) {
    let Some(tracee) = Tracee::from_term(pid) else {
        return;
    };
    let build = || TraceEvent::new(tag, tracee, now_ns(), scheduler_id(), payload);
    let _ = beamr_trace::fire(tracer, tag, tracee, build);
}

/// `return_from`: `pid` returned `value` from `mfa` (a call made with a
/// `return_trace` pattern of `session`).
#[inline(always)]
pub fn return_from(t: &mut ProcessTrace, session: &Session, pid: Term, mfa: Mfa, value: Term) {
    if t.wants(TraceFlags::CALL) {
        t.report_return(session, pid, &mfa, value);
    }
}

/// `exception_from`: an exception of `class` with `reason` left `mfa` in
/// `pid` (a call made with an `exception_trace` pattern of `session`).
#[inline(always)]
pub fn exception_from(
    t: &mut ProcessTrace,
    session: &Session,
    pid: Term,
    mfa: Mfa,
    class: Atom,
    reason: Term,
) {
    if t.wants(TraceFlags::CALL) {
        let payload = Payload::Exception { mfa, class, reason };
        t.report_in(
            session,
            TraceFlags::CALL,
            true,
            TraceTag::ExceptionFrom,
            pid,
            payload,
        );
    }
}

/// A monitor (no BEAM trace tag; `Tracer::monitor`): `pid`, traced with
/// `procs`, monitors `target` with `reference`.
#[inline(always)]
pub fn monitor(t: &ProcessTrace, pid: Term, target: Term, reference: Term) {
    if t.wants(TraceFlags::PROCS) {
        t.report_monitor(pid, target, reference);
    }
}

/// `register` or `unregister` (`tag`): `pid` got or lost the name `name`.
#[inline(always)]
pub fn register(t: &mut ProcessTrace, tag: TraceTag, pid: Term, name: Atom) {
    debug_assert!(matches!(tag, TraceTag::Register | TraceTag::Unregister));
    if t.wants(TraceFlags::PROCS) {
        t.report(TraceFlags::PROCS, tag, pid, Payload::Register { name });
    }
}

/// `in` or `out` (`tag`): `pid` was scheduled in or out, in `mfa`.
#[inline(always)]
pub fn running(t: &mut ProcessTrace, tag: TraceTag, pid: Term, mfa: Option<Mfa>) {
    debug_assert!(matches!(tag, TraceTag::In | TraceTag::Out));
    if t.wants(TraceFlags::RUNNING) {
        t.report(TraceFlags::RUNNING, tag, pid, Payload::Running { mfa });
    }
}

/// `in_exiting`, `out_exiting` or `out_exited` (`tag`): `pid`, exiting, was
/// scheduled in or out (`exiting` flag): `out_exited` at the end of its
/// exit work, `out_exiting` and `in_exiting` between the slices of exit
/// work too long for one (many links and monitors).
#[inline(always)]
pub fn exiting(t: &mut ProcessTrace, tag: TraceTag, pid: Term) {
    debug_assert!(matches!(
        tag,
        TraceTag::InExiting | TraceTag::OutExiting | TraceTag::OutExited
    ));
    if t.wants(TraceFlags::EXITING) {
        t.report(
            TraceFlags::EXITING,
            tag,
            pid,
            Payload::Running { mfa: None },
        );
    }
}

/// True if `t` wants garbage-collection events: a collection site asks
/// before it measures the heap.
#[inline(always)]
pub fn wants_gc(t: &ProcessTrace) -> bool {
    t.wants(TraceFlags::GARBAGE_COLLECTION)
}

/// `gc_minor_start`, `gc_minor_end`, `gc_major_start` or `gc_major_end`
/// (`tag`) for `pid`, with the heap's sizes.
#[inline(always)]
pub fn gc(t: &mut ProcessTrace, tag: TraceTag, pid: Term, info: GcInfo) {
    if wants_gc(t) {
        t.report(TraceFlags::GARBAGE_COLLECTION, tag, pid, Payload::Gc(info));
    }
}
