//! Trace sessions (OTP 27's `trace` module): the erts BIFs OTP's own
//! `trace` module calls, `erts_internal:trace_session_create/3`,
//! `trace_session_destroy/1`, `trace/4`, `trace_pattern/4` and
//! `trace_info/3`. Each of the last three is its classic counterpart
//! (`flags`, `patterns`, `info`) run in
//! the session its first argument names (see `trace::Session`).
//!
//! A session is named by `{Ref, {Name, Id}}` (what `session_create`
//! returns) or by its weak reference `{Name, Id}`; a session that does
//! not exist (or no longer) raises `badarg` with the cause `session`.
//! `trace_info(any, What, session)` answers `trace:session_info/1`: the
//! weak references of the sessions that trace `What` (a pid, a function,
//! `send`, `'receive'`, `new`, `on_load`, or `any` for all of them).

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::TraceFlags;

use super::flags::trace_in;
use super::info::{process_trace_of, trace_info_in};
use super::named_tracers::{module_tracer, NamedTracer};
use super::patterns::trace_pattern_in;
use crate::code::CodeServer;
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;
use crate::trace::call_patterns;
use crate::trace::{EventPattern, MessageEvent, Session, SessionTracer};

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erts_internal", "trace_session_create", 3, session_create),
    ("erts_internal", "trace_session_destroy", 1, session_destroy),
    ("erts_internal", "trace", 4, trace4),
    ("erts_internal", "trace_pattern", 4, trace_pattern4),
    ("erts_internal", "trace_info", 3, trace_info3),
];

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("a short atom name"))
}

/// The session `t` names (`{Ref, {Name, Id}}` with the reference it was
/// created with, or `{Name, Id}`), if it is alive. A strong handle makes
/// `p` one of the session's holders (see `trace::Session`).
pub(super) fn session_of(p: &Process, t: Term) -> Option<Arc<Session>> {
    let (weak, strong) = match *t.as_tuple()? {
        [r, weak] if r.is_reference() => {
            let view = r.as_ref()?;
            let ids = [view.ids[0], view.ids[1], view.ids[2]];
            (weak, Some(ids))
        }
        [_, _] => (t, None),
        _ => return None,
    };
    let session = match *weak.as_tuple()? {
        [name, id] => Session::find(name.as_atom()?, u64::try_from(id.as_small()?).ok()?, strong)?,
        _ => return None,
    };
    if strong.is_some() {
        session.hold(p.pid);
    }
    Some(session)
}

/// `badarg` with the cause `session`.
fn no_session() -> Exception {
    Exception::badarg_cause(atom("session"))
}

/// A session's weak reference `{Name, Id}` (`{legacy, default}`).
fn weak_ref(p: &mut Process, s: &Session) -> Term {
    let id = match s.weak_id() {
        Some(n) => p.heap.int(n as i64),
        None => atom("default"),
    };
    p.heap.tuple(&[Term::atom(s.name()), id])
}

/// `erts_internal:trace_session_create(Name, Tracer, Opts)`.
pub(super) fn session_create(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (name, tracer, opts) = (a[0], a[1], a[2]);
    let Some(name) = name.as_atom() else {
        return Err(Exception::badarg());
    };
    if opts != Term::NIL {
        return Err(Exception::badarg());
    }
    let tracer = if tracer == Term::atom(Atom::UNDEFINED) {
        None
    } else if tracer.is_local_pid() || tracer.is_local_port() {
        Some(SessionTracer::Process(tracer))
    } else if let Some(&[m, state]) = tracer.as_tuple() {
        // A tracer module; a module that is none is a bad argument.
        let module = m.as_atom().ok_or_else(Exception::badarg)?;
        match module_tracer(rt, module, state)? {
            Some(NamedTracer::Process(to)) => Some(SessionTracer::Process(to)),
            Some(NamedTracer::Module(t)) => Some(SessionTracer::Module(t)),
            None => return Err(Exception::badarg()),
        }
    } else {
        return Err(Exception::badarg());
    };
    let ids = rt.new_ref_ids();
    let session = Session::create(name, tracer, p.pid, ids);
    let strong = p.heap.local_ref(ids);
    let weak = weak_ref(p, &session);
    Ok(p.heap.tuple(&[strong, weak]))
}

/// `erts_internal:trace_session_destroy(Session)`: true if it was alive.
pub(super) fn session_destroy(
    rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    // A strong handle keeps its session's record: once destroyed, it is
    // false. A weak one names nothing then (erts frees a session with
    // its last strong handle; beamr forgets it when it ends).
    let strong = matches!(a[0].as_tuple(), Some(&[r, _]) if r.is_reference());
    let Some(session) = session_of(p, a[0]) else {
        if strong {
            return Ok(Term::FALSE);
        }
        return Err(Exception::badarg_cause(atom("badopt")));
    };
    let ended = rt.end_trace_session(&session);
    if ended {
        p.trace.clear_session(&session);
        call_patterns::clear_session(CodeServer::global(), &session);
    }
    Ok(Term::bool(ended))
}

/// `erts_internal:trace(Session, PidSpec, How, FlagList)`.
pub(super) fn trace4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let session = session_of(p, a[0]).ok_or_else(no_session)?;
    trace_in(rt, p, &session, a[1], a[2], a[3])
}

/// `erts_internal:trace_pattern(Session, MFA, MatchSpec, FlagList)`.
pub(super) fn trace_pattern4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let session = session_of(p, a[0]).ok_or_else(no_session)?;
    trace_pattern_in(rt, p, &session, a[1], a[2], a[3])
}

/// `erts_internal:trace_info(Session | any, What, Item)`.
pub(super) fn trace_info3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if a[0] == atom("any") {
        return sessions_of(rt, p, a[1], a[2]);
    }
    let session = session_of(p, a[0]).ok_or_else(no_session)?;
    trace_info_in(rt, p, &session, a[1], a[2])
}

/// `{session, Sessions}`: the weak references of the sessions tracing
/// `what`.
fn sessions_of(rt: &Runtime, p: &mut Process, what: Term, item: Term) -> Result<Term, Exception> {
    if item != atom("session") {
        return Err(Exception::badarg());
    }
    let sessions: Vec<Arc<Session>> = if what.is_local_pid() {
        let Some(trace) = process_trace_of(rt, p, what) else {
            return Ok(Term::atom(Atom::UNDEFINED));
        };
        trace.sessions().map(|s| Arc::clone(&s.session)).collect()
    } else if let Some(&[m, f, arity]) = what.as_tuple() {
        let (Some(m), Some(f), Some(n)) = (m.as_atom(), f.as_atom(), arity.as_small()) else {
            return Err(Exception::badarg());
        };
        let Ok(n) = u32::try_from(n) else {
            return Ok(Term::atom(Atom::UNDEFINED));
        };
        let Some(module) = crate::code::CodeServer::global().current(m) else {
            return Ok(Term::atom(Atom::UNDEFINED));
        };
        if !module.functions.iter().any(|x| x.name == f && x.arity == n) {
            return Ok(Term::atom(Atom::UNDEFINED));
        }
        call_patterns::sessions_of(m, f, n)
    } else {
        let Some(name) = what.as_atom().map(Atom::name) else {
            return Err(Exception::badarg_cause(atom("badopt")));
        };
        let new = rt.trace.for_new_process();
        let keep = |s: &Session| -> Option<bool> {
            Some(match name {
                "any" => true,
                "on_load" => call_patterns::has_on_load(s),
                "send" => !matches!(s.event_pattern(MessageEvent::Send), EventPattern::Off),
                "receive" => !matches!(s.event_pattern(MessageEvent::Receive), EventPattern::Off),
                "new" | "new_processes" => new.flags_in(s) != TraceFlags::empty(),
                _ => return None,
            })
        };
        let mut out = Vec::new();
        for s in Session::all() {
            match keep(&s) {
                Some(true) => out.push(s),
                Some(false) => {}
                None => return Err(Exception::badarg_cause(atom("badopt"))),
            }
        }
        out
    };
    let refs: Vec<Term> = sessions.iter().map(|s| weak_ref(p, s)).collect();
    let list = p.heap.list(&refs);
    Ok(p.heap.tuple(&[atom("session"), list]))
}
