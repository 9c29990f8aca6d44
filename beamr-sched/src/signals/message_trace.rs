//! The `send`, `send_to_non_existing_process` and `'receive'` probes, with
//! each trace session's message pattern (`erlang:trace_pattern(send, MS,
//! [])`, `trace:send/3`, `trace:recv/3`).
//!
//! A site tests the process's flag word ([`probes::wants_send`],
//! [`probes::wants_receive`]): one load and one branch while nothing
//! traces it. Past it, in a cold function, per session traced with the
//! flag: its pattern decides (`false`: no event; a match specification:
//! run on `[Receiver, Msg]` for a send, in the sender, or on
//! `[Node, Sender, Msg]` for a receive, in the receiver, and no event if
//! no clause matches or its body says `message(false)`), then the event
//! goes to the session's tracer ([`probes::message`]).
//!
//! The specifications are compiled and run by the match-spec layer, above
//! this one: it installs its runner ([`install_spec_runner`]) when the
//! runtime boots.

use std::sync::{Arc, OnceLock};

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::{Decision, TraceContext, TraceFlags, TraceTag, Tracer};

use crate::process::Process;
use crate::runtime::Runtime;
use crate::trace::{probes, CompiledSpec, EventPattern, MessageEvent, Session};

/// Runs a message pattern's match specification `spec` of `session` on
/// `args` in `p`, `tracer` being the session's tracer of `p`: `None` if no
/// clause matches (no event), `Some(None)` for the plain event,
/// `Some(Some(T))` when the body gave `message(T)`.
pub type SpecRunner = fn(
    rt: &Runtime,
    p: &mut Process,
    session: &Arc<Session>,
    tracer: Arc<dyn Tracer>,
    spec: &CompiledSpec,
    args: &[Term],
) -> Option<Option<Term>>;

static RUNNER: OnceLock<SpecRunner> = OnceLock::new();

/// Installs the runner of message patterns' specifications (once; the
/// first call wins).
pub fn install_spec_runner(runner: SpecRunner) {
    let _ = RUNNER.set(runner);
}

/// `send` (or `send_to_non_existing_process` when `dead`): `p` sent `msg`
/// to `to` (as the sender named it). Returns the trace context the
/// message carries to its receiver, if a tracer made one.
#[inline(always)]
pub fn send(
    rt: &Runtime,
    p: &mut Process,
    msg: Term,
    to: Term,
    dead: bool,
) -> Option<TraceContext> {
    if probes::wants_send(&p.trace) {
        let tag = if dead {
            TraceTag::SendToNonExistingProcess
        } else {
            TraceTag::Send
        };
        traced(rt, p, tag, msg, Some(to), None)
    } else {
        None
    }
}

/// `'receive'`: `msg`, sent by `from` (a pid, or an atom for a message
/// of the runtime's own) with the trace context `carried`, entered `p`'s
/// mailbox.
#[inline(always)]
pub fn receive(
    rt: &Runtime,
    p: &mut Process,
    msg: Term,
    from: Term,
    carried: Option<TraceContext>,
) {
    if probes::wants_receive(&p.trace) {
        let _ = traced(rt, p, TraceTag::Receive, msg, Some(from), carried);
    }
}

/// The sender of messages the runtime itself sends (timers, ports'
/// data, the system logger): erts names such a sender with an atom.
pub fn runtime_sender() -> Term {
    Term::atom(Atom::UNDEFINED)
}

#[cold]
#[inline(never)]
fn traced(
    rt: &Runtime,
    p: &mut Process,
    tag: TraceTag,
    msg: Term,
    peer: Option<Term>,
    carried: Option<TraceContext>,
) -> Option<TraceContext> {
    let (flag, event) = match tag {
        TraceTag::Receive => (TraceFlags::RECEIVE, MessageEvent::Receive),
        _ => (TraceFlags::SEND, MessageEvent::Send),
    };
    // A receive names no peer in its event (erts's message has none).
    let shown = if tag == TraceTag::Receive { None } else { peer };
    let pid = p.pid;
    let mut context = None;
    // Sessions without a pattern fire while the process's sessions are
    // borrowed: no copy of them per event. Those with a match
    // specification run it on the process, so they are taken out first
    // (rare: `trace_pattern(send | 'receive', MS, _)`), and so are the
    // sessions whose tracer asks to be removed. The rare cases' lists are
    // made only when needed: the common case builds and drops nothing.
    let mut rare: Option<Box<Rare>> = None;
    for s in p.trace.sessions().filter(|s| s.flags.contains(flag)) {
        match s.session.event_pattern(event) {
            EventPattern::Off => {}
            EventPattern::All => {
                let event = (msg, shown, None);
                let (decision, made) = probes::message(&*s.tracer, tag, pid, event, carried);
                context = context.or(made);
                if decision == Decision::Remove {
                    let rare = rare.get_or_insert_with(Box::default);
                    rare.removed.push(Arc::clone(&s.session));
                }
            }
            EventPattern::Spec(spec) => {
                let rare = rare.get_or_insert_with(Box::default);
                rare.with_spec.push((
                    Arc::clone(&s.session),
                    s.tracer.clone(),
                    s.flags.contains(TraceFlags::SILENT),
                    spec,
                ));
            }
        }
    }
    let Some(rare) = rare else {
        return context;
    };
    let rest = with_specs_and_removals(rt, p, tag, (msg, peer, shown), carried, *rare);
    context.or(rest)
}

/// What [`traced`] leaves for [`with_specs_and_removals`]: the sessions
/// whose message pattern is a match specification, and those whose
/// tracer asked to be removed.
#[derive(Default)]
struct Rare {
    with_spec: Vec<SpecSession>,
    removed: Vec<Arc<Session>>,
}

/// A session whose message pattern is a match specification: the
/// session, its tracer, whether it is `silent`, the specification.
type SpecSession = (Arc<Session>, Arc<dyn Tracer>, bool, CompiledSpec);

/// The rest of [`traced`] in the rare cases: the sessions with a match
/// specification run it and fire when it matches; the sessions whose
/// tracers asked to be removed are cleared.
/// Returns the context a send event made, if any.
#[cold]
#[inline(never)]
fn with_specs_and_removals(
    rt: &Runtime,
    p: &mut Process,
    tag: TraceTag,
    (msg, peer, shown): (Term, Option<Term>, Option<Term>),
    carried: Option<TraceContext>,
    Rare {
        with_spec,
        mut removed,
    }: Rare,
) -> Option<TraceContext> {
    let pid = p.pid;
    let mut context = None;
    for (session, tracer, silent, spec) in with_spec {
        let Some(runner) = RUNNER.get() else {
            continue;
        };
        let args = spec_args(tag, msg, peer);
        let Some(extra) = runner(rt, p, &session, tracer.clone(), &spec, &args) else {
            continue;
        };
        if silent {
            continue;
        }
        let (decision, made) = probes::message(&*tracer, tag, pid, (msg, shown, extra), carried);
        context = context.or(made);
        if decision == Decision::Remove {
            removed.push(session);
        }
    }
    for session in removed {
        p.trace.clear_session(&session);
    }
    context
}

/// The arguments of a message pattern's specification: `[Receiver, Msg]`
/// for a send, `[Node, Sender, Msg]` for a receive (a sender that is not
/// a process: `[Sender, undefined, Msg]`, as erts has it).
fn spec_args(tag: TraceTag, msg: Term, peer: Option<Term>) -> Vec<Term> {
    let peer = peer.unwrap_or(Term::atom(Atom::UNDEFINED));
    if tag != TraceTag::Receive {
        return vec![peer, msg];
    }
    if peer.is_pid() {
        vec![Term::atom(Atom::NONODE_NOHOST), peer, msg]
    } else {
        vec![peer, Term::atom(Atom::UNDEFINED), msg]
    }
}

impl Runtime {
    /// Ends the trace session `session` (`trace:session_destroy/1`, or
    /// its creator's end): true if it was alive. Every process and the
    /// processes to come lose its flags (each through a signal, in order
    /// with what else it is sent); its function patterns are skipped from
    /// now on and dropped by the pattern table's next change.
    pub fn end_trace_session(&self, session: &Arc<Session>) -> bool {
        if !session.destroy() {
            return false;
        }
        let clear = session.clear_all();
        self.trace.change_new_processes(&clear);
        for pid in self.processes.pids() {
            self.send_signal(pid, crate::process::Signal::Trace(clear.clone()));
        }
        true
    }
}
