//! `erlang:trace_info/2` for processes, ports and `new`: the `flags` and
//! `tracer` items, which `dbg:i/0` and `dbg:get_tracer/0` read. Functions
//! (`{M, F, A}`, `on_load`) and message patterns (`send`, `'receive'`)
//! raise `{notsup, What}` until call tracing answers for them.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::TraceFlags;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;
use crate::trace::ProcessTrace;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("erlang", "trace_info", 2, trace_info)];

/// The flags in the order erts lists them.
const ORDER: &[&str] = &[
    "running_procs",
    "running_ports",
    "ports",
    "scheduler_id",
    "silent",
    "return_to",
    "arity",
    "garbage_collection",
    "exiting",
    "running",
    "set_on_first_link",
    "set_on_link",
    "set_on_first_spawn",
    "procs",
    "call",
    "set_on_spawn",
    "receive",
    "send",
    "monotonic_timestamp",
    "strict_monotonic_timestamp",
    "timestamp",
    "cpu_timestamp",
];

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("atom"))
}

/// `erlang:trace_info(PidPortFuncEvent, Item)`.
fn trace_info(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let item = a[1].as_atom().ok_or_else(Exception::badarg)?;
    if !matches!(item.name(), "flags" | "tracer") {
        if a[0].is_pid() || a[0].is_port() {
            return Err(Exception::badarg());
        }
        return Err(notsup(p, "trace_info/2 of functions and events"));
    }
    let trace = if a[0].is_local_pid() {
        if a[0] == p.pid {
            Some(p.trace.clone())
        } else {
            rt.processes.get(a[0]).and_then(|handle| {
                let body = handle.body.lock().unwrap_or_else(|e| e.into_inner());
                body.as_ref().map(|other| other.trace.clone())
            })
        }
    } else if a[0].is_port() {
        // Ports are not traced yet: a live one has no flags.
        rt.ports.get(a[0]).map(|_| ProcessTrace::off())
    } else {
        match a[0].as_atom().map(Atom::name) {
            Some("new" | "new_processes") => Some(rt.trace.for_new_process()),
            Some("new_ports") => Some(ProcessTrace::off()),
            Some("on_load" | "send" | "receive") => {
                return Err(notsup(p, "trace_info/2 of functions and events"))
            }
            _ if a[0].as_tuple().is_some_and(|t| t.len() == 3) => {
                return Err(notsup(p, "trace_info/2 of functions and events"))
            }
            _ => return Err(Exception::badarg()),
        }
    };
    let Some(trace) = trace else {
        return Ok(Term::atom(Atom::UNDEFINED));
    };
    let value = if item.name() == "flags" {
        let flags = trace.flags();
        let names: Vec<Term> = ORDER
            .iter()
            .filter(|name| TraceFlags::from_atom_name(name).is_some_and(|f| flags.contains(f)))
            .map(|name| atom(name))
            .collect();
        p.heap.list(&names)
    } else {
        trace.tracer_term().unwrap_or(Term::NIL)
    };
    Ok(p.heap.tuple(&[Term::atom(item), value]))
}

/// `error:{notsup, What}`.
fn notsup(p: &mut Process, what: &str) -> Exception {
    let what = Atom::new(what).map_or(Term::NIL, Term::atom);
    Exception::error(p.heap.tuple(&[atom("notsup"), what]))
}
