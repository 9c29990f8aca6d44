//! The BIFs under OTP's `seq_trace` module: `erlang:seq_trace/2`,
//! `erlang:seq_trace_info/1`, `erlang:seq_trace_print/1,2` (OTP 25, 27 and
//! 29 call the same ones), and the runtime-wide parts reached through
//! `erlang:system_flag/2` (`sequential_tracer`, `reset_seq_trace`) and
//! `erlang:system_info(sequential_tracer)`. The token itself and its rules
//! live in `signals::seq_trace`.

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::message::Deliver;

use super::delivery::RuntimeDelivery;
use crate::loader::BifRow;
use crate::process::{Exception, Process, Signal};
use crate::runtime::Runtime;
use crate::signals::seq_trace;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "seq_trace", 2, seq_trace2),
    ("erlang", "seq_trace_info", 1, seq_trace_info),
    ("erlang", "seq_trace_print", 1, seq_trace_print1),
    ("erlang", "seq_trace_print", 2, seq_trace_print2),
];

/// `erlang:seq_trace(Component, Value)`: the component's old value.
fn seq_trace2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    seq_trace::set_token(p, a[0], a[1]).ok_or_else(Exception::badarg)
}

/// `erlang:seq_trace_info(Item)`: `{Item, Value}` or `[]`.
fn seq_trace_info(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    seq_trace::info(p, a[0]).ok_or_else(Exception::badarg)
}

/// `erlang:seq_trace_print(Info)`: true if the process has a token.
fn seq_trace_print1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(seq_trace::print(rt, p, None, a[0])))
}

/// `erlang:seq_trace_print(Label, Info)`: true if the process has a token
/// with that label.
fn seq_trace_print2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(seq_trace::print(rt, p, Some(a[0]), a[1])))
}

/// `erlang:system_flag(sequential_tracer, Tracer)`: `Tracer` (a pid, or
/// `false` for none) becomes the system sequential tracer; the old one (or
/// `false`) is returned. A port or a tracer module raises `{notsup, What}`
/// (beamr has neither as a tracer yet).
pub(crate) fn set_sequential_tracer(
    rt: &Runtime,
    p: &mut Process,
    tracer: Term,
) -> Result<Term, Exception> {
    let new = if tracer == Term::FALSE {
        None
    } else if tracer.is_local_pid() {
        if rt.processes.get(tracer).is_none() && tracer != p.pid {
            return Err(Exception::badarg());
        }
        let Some(weak) = rt.weak_self.get().cloned() else {
            return Err(notsup(p, "seq_trace outside run_main"));
        };
        let deliver: Arc<dyn Deliver> = Arc::new(RuntimeDelivery { rt: weak });
        Some((tracer, deliver))
    } else if tracer.is_local_port() {
        return Err(notsup(p, "a port as sequential tracer"));
    } else if tracer.as_tuple().is_some_and(|t| t.len() == 2) {
        return Err(notsup(p, "tracer modules as sequential tracer"));
    } else {
        return Err(Exception::badarg());
    };
    Ok(rt.trace.seq.set_system(new).unwrap_or(Term::FALSE))
}

/// `erlang:system_info(sequential_tracer)`: `{sequential_tracer, Tracer}`.
pub(crate) fn sequential_tracer_info(rt: &Runtime, p: &mut Process) -> Term {
    let tracer = rt.trace.seq.system().unwrap_or(Term::FALSE);
    let key = Term::atom(Atom::new("sequential_tracer").expect("atom"));
    p.heap.tuple(&[key, tracer])
}

/// `erlang:system_flag(reset_seq_trace, _)`: every process's token and
/// counters, and its waiting messages' tokens, emptied; `true`.
pub(crate) fn reset_seq_trace(rt: &Runtime, p: &mut Process) -> Term {
    seq_trace::reset(p);
    for pid in rt.processes.pids() {
        if pid != p.pid {
            rt.send_signal(pid, Signal::SeqTraceReset);
        }
    }
    Term::TRUE
}

/// `error:{notsup, What}`.
fn notsup(p: &mut Process, what: &str) -> Exception {
    let what = Atom::new(what).map_or(Term::NIL, Term::atom);
    let notsup = Term::atom(Atom::new("notsup").expect("atom"));
    Exception::error(p.heap.tuple(&[notsup, what]))
}
