//! One function per probe. Each tests its flag (one load, one branch) and,
//! only when the process is traced for it, builds the payload and reports
//! (see [`ProcessTrace`]). The table in the [module docs](super) says where
//! each is called.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::{
    CallArgs, GcInfo, Mfa, Payload, TraceContext, TraceEvent, TraceFlags, TraceTag, Tracee, Tracer,
};

use super::clock::{now_ns, scheduler_id};
use super::ProcessTrace;

/// `send`: `pid` sent `message` to `to` (as the sender named it). Returns
/// the trace context the message carries to its receiver, if the tracer
/// made one.
#[inline(always)]
#[must_use]
pub fn send(t: &mut ProcessTrace, pid: Term, message: Term, to: Term) -> Option<TraceContext> {
    if t.wants(TraceFlags::SEND) {
        let peer = Some(to);
        t.report_send(TraceTag::Send, pid, Payload::Message { message, peer })
    } else {
        None
    }
}

/// `send_to_non_existing_process`: `pid` sent `message` to `to`, which
/// does not exist.
#[inline(always)]
pub fn send_to_dead(t: &mut ProcessTrace, pid: Term, message: Term, to: Term) {
    if t.wants(TraceFlags::SEND) {
        let peer = Some(to);
        let tag = TraceTag::SendToNonExistingProcess;
        let _ = t.report_send(tag, pid, Payload::Message { message, peer });
    }
}

/// `'receive'`: `message`, which carried `carried` from its send, entered
/// `pid`'s mailbox.
#[inline(always)]
pub fn receive(t: &mut ProcessTrace, pid: Term, message: Term, carried: Option<TraceContext>) {
    if t.wants(TraceFlags::RECEIVE) {
        let peer = None;
        t.report_receive(pid, Payload::Message { message, peer }, carried);
    }
}

/// `spawn` (`pid` spawned `other`) or `spawned` (`other` spawned `pid`)
/// (`tag`), the new process running `mfa` with `args`.
#[inline(always)]
pub fn spawn(t: &mut ProcessTrace, tag: TraceTag, pid: Term, other: Term, mfa: Mfa, args: &[Term]) {
    debug_assert!(matches!(tag, TraceTag::Spawn | TraceTag::Spawned));
    if t.wants(TraceFlags::PROCS) {
        t.report(tag, pid, Payload::Spawn { other, mfa, args });
    }
}

/// `exit`: `pid` exited with `reason`.
#[inline(always)]
pub fn exit(t: &mut ProcessTrace, pid: Term, reason: Term) {
    if t.wants(TraceFlags::PROCS) {
        t.report(TraceTag::Exit, pid, Payload::Exit { reason });
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
        t.report(tag, pid, Payload::Link { peer });
    }
}

/// `call`: `pid` calls `mfa` with `args` (a function with a trace
/// pattern; the caller tests the function's flag word first), with the
/// match specification's `message` term `extra` if it gave one. With the
/// `arity` flag the event carries only the arity; with `silent`, nothing
/// is sent.
#[inline(always)]
pub fn call(t: &mut ProcessTrace, pid: Term, mfa: Mfa, args: &[Term], extra: Option<Term>) {
    if t.wants(TraceFlags::CALL) && !t.wants(TraceFlags::SILENT) {
        let args = if t.wants(TraceFlags::ARITY) {
            CallArgs::Arity(mfa.arity)
        } else {
            CallArgs::Args(args)
        };
        let payload = Payload::Call {
            mfa,
            args,
            match_spec_result: extra,
        };
        t.report(TraceTag::Call, pid, payload);
    }
}

/// `return_to`: `pid` returned to `mfa` (`None`: to no function, as at the
/// end of the process), at the end of a chain of locally traced calls.
#[inline(always)]
pub fn return_to(t: &mut ProcessTrace, pid: Term, mfa: Option<Mfa>) {
    if t.wants(TraceFlags::CALL) && t.wants(TraceFlags::RETURN_TO) && !t.wants(TraceFlags::SILENT) {
        t.report(TraceTag::ReturnTo, pid, Payload::ReturnTo { mfa });
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
/// `return_trace` pattern).
#[inline(always)]
pub fn return_from(t: &mut ProcessTrace, pid: Term, mfa: Mfa, value: Term) {
    if t.wants(TraceFlags::CALL) && !t.wants(TraceFlags::SILENT) {
        t.report(TraceTag::ReturnFrom, pid, Payload::Return { mfa, value });
    }
}

/// `exception_from`: an exception of `class` with `reason` left `mfa` in
/// `pid` (a call made with an `exception_trace` pattern).
#[inline(always)]
pub fn exception_from(t: &mut ProcessTrace, pid: Term, mfa: Mfa, class: Atom, reason: Term) {
    if t.wants(TraceFlags::CALL) && !t.wants(TraceFlags::SILENT) {
        let payload = Payload::Exception { mfa, class, reason };
        t.report(TraceTag::ExceptionFrom, pid, payload);
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
        t.report(tag, pid, Payload::Register { name });
    }
}

/// `in` or `out` (`tag`): `pid` was scheduled in or out, in `mfa`.
#[inline(always)]
pub fn running(t: &mut ProcessTrace, tag: TraceTag, pid: Term, mfa: Option<Mfa>) {
    debug_assert!(matches!(tag, TraceTag::In | TraceTag::Out));
    if t.wants(TraceFlags::RUNNING) {
        t.report(tag, pid, Payload::Running { mfa });
    }
}

/// `in_exiting`, `out_exiting` or `out_exited` (`tag`): `pid`, exiting, was
/// scheduled in or out (`exiting` flag). beamr ends a process within one
/// slice, so only `out_exited` (its last scheduling out) fires.
#[inline(always)]
pub fn exiting(t: &mut ProcessTrace, tag: TraceTag, pid: Term) {
    debug_assert!(matches!(
        tag,
        TraceTag::InExiting | TraceTag::OutExiting | TraceTag::OutExited
    ));
    if t.wants(TraceFlags::EXITING) {
        t.report(tag, pid, Payload::Running { mfa: None });
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
        t.report(tag, pid, Payload::Gc(info));
    }
}
