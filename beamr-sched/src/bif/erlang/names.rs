//! `erlang` BIFs on registered names (of processes and ports) and
//! liveness: `register`, `unregister`, `whereis`, `registered`,
//! `is_process_alive`.

use crate::trace::probes;
use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::TraceTag;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "register", 2, register),
    ("erlang", "unregister", 1, unregister),
    ("erlang", "whereis", 1, whereis),
    ("erlang", "registered", 0, registered),
    ("erlang", "is_process_alive", 1, is_process_alive),
];

fn register(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = a[0]
        .as_atom()
        .filter(|&n| n != Atom::UNDEFINED)
        .ok_or_else(Exception::badarg)?;
    let pid = a[1];
    if pid.is_local_port() {
        return register_port(rt, name, pid);
    }
    if !pid.is_local_pid() || rt.processes.get(pid).is_none() {
        return Err(Exception::badarg());
    }
    if pid == p.pid {
        if p.registered_name.is_some() || !rt.names.register(name, pid) {
            return Err(Exception::badarg());
        }
        p.registered_name = Some(name);
        probes::register(&mut p.trace, TraceTag::Register, pid, name);
        return Ok(Term::TRUE);
    }
    let handle = rt.processes.get(pid).ok_or_else(Exception::badarg)?;
    let mut body = handle.body.lock().unwrap_or_else(|e| e.into_inner());
    let other = body.as_mut().ok_or_else(Exception::badarg)?;
    if other.registered_name.is_some() || !rt.names.register(name, pid) {
        return Err(Exception::badarg());
    }
    other.registered_name = Some(name);
    probes::register(&mut other.trace, TraceTag::Register, pid, name);
    Ok(Term::TRUE)
}

/// `register(Name, Port)`: a live port without a name.
fn register_port(rt: &Runtime, name: Atom, port: Term) -> Result<Term, Exception> {
    let port = rt.ports.get(port).ok_or_else(Exception::badarg)?;
    let mut state = port.state();
    if state.closed || state.registered_name.is_some() || !rt.names.register(name, port.id) {
        return Err(Exception::badarg());
    }
    state.registered_name = Some(name);
    let id = port.id;
    crate::trace::port_probes::register(&mut state.trace, TraceTag::Register, id, name);
    Ok(Term::TRUE)
}

fn unregister(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = a[0].as_atom().ok_or_else(Exception::badarg)?;
    let pid = rt.names.whereis(name).ok_or_else(Exception::badarg)?;
    rt.names.unregister(name);
    if pid.is_local_port() {
        if let Some(port) = rt.ports.get(pid) {
            let mut state = port.state();
            state.registered_name = None;
            let t = &mut state.trace;
            crate::trace::port_probes::register(t, TraceTag::Unregister, pid, name);
        }
    } else if pid == p.pid {
        p.registered_name = None;
        probes::register(&mut p.trace, TraceTag::Unregister, pid, name);
    } else if let Some(handle) = rt.processes.get(pid) {
        if let Some(other) = handle
            .body
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
        {
            other.registered_name = None;
            probes::register(&mut other.trace, TraceTag::Unregister, pid, name);
        }
    }
    Ok(Term::TRUE)
}

pub(super) fn whereis(rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = a[0].as_atom().ok_or_else(Exception::badarg)?;
    Ok(rt
        .names
        .whereis(name)
        .unwrap_or(Term::atom(Atom::UNDEFINED)))
}

pub(super) fn registered(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let names: Vec<Term> = rt.names.names().into_iter().map(Term::atom).collect();
    Ok(p.heap.list(&names))
}

fn is_process_alive(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_local_pid() {
        return Err(Exception::badarg());
    }
    Ok(Term::bool(a[0] == p.pid || rt.is_alive_after_signals(a[0])))
}
