//! `erlang:trace/3` and `erlang:trace_delivered/1`: turning tracing on and
//! off for processes, with trace messages to a tracer process (beamr-trace's
//! message backend, delivered through the runtime).
//!
//! The flags reach a process other than the caller as a
//! [`Signal::Trace`], so they take effect in order with the caller's other
//! signals to it: a message sent after `erlang:trace/3` returns is traced.
//! Trace patterns are `patterns`'s, `erlang:trace_info/2`
//! `info`'s. `{tracer, Module, State}` names a tracer module
//! (`named_tracers`: `erl_tracer`, or one of beamr's own backends); each
//! tracer is asked `trace_status` before its flags are set on a process.
//! Ports are tracees as processes are: one port, `ports`,
//! `existing_ports`, `new_ports`, and the ports among `all`, `existing`
//! and `new`, each group visiting the kinds its flags are for
//! (`trace::port_probes` has the two sets). A port's flags change at
//! once, under its lock.
//! `{tracer, Port}` sends each trace message to the port in the external
//! format (`ports::trace_file` and `ports::trace_ip`, erts's trace port
//! drivers, write them as erts does).

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::message::{MessageTracer, TimestampKind};
use beamr_trace::{Decision, TraceFlags, Tracee};

use super::delivery::{PortDelivery, ProcessDelivery};
use super::named_tracers::{bad_option, module_tracer, not_a_tracer, NamedTracer};
use crate::loader::BifRow;
use crate::process::{Exception, Process, Signal};
use crate::runtime::Runtime;
use crate::signals;
use crate::trace::{port_probes, Session, SessionTracer, TraceChange};

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "trace", 3, trace3),
    ("erlang", "trace_delivered", 1, trace_delivered),
];

/// Which processes and ports an `erlang:trace/3` call names.
pub(super) enum Target {
    /// One process.
    One(Term),
    /// One port.
    Port(Term),
    /// A group: which of the existing processes and ports, and whether
    /// the settings of new ones change.
    Group {
        /// The existing processes, ports, or both.
        existing: Option<Kinds>,
        /// The settings of new processes, ports, or both.
        new: Option<Kinds>,
    },
}

/// Which kinds of tracee a group names.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Kinds {
    Processes,
    Ports,
    Both,
}

impl Kinds {
    fn processes(self) -> bool {
        self != Kinds::Ports
    }

    fn ports(self) -> bool {
        self != Kinds::Processes
    }
}

pub(super) fn target(t: Term) -> Result<Target, Exception> {
    if t.is_local_pid() {
        return Ok(Target::One(t));
    }
    if t.is_local_port() {
        return Ok(Target::Port(t));
    }
    let (existing, new) = match t.as_atom().map(Atom::name) {
        Some("all") => (Some(Kinds::Both), Some(Kinds::Both)),
        Some("processes") => (Some(Kinds::Processes), Some(Kinds::Processes)),
        Some("ports") => (Some(Kinds::Ports), Some(Kinds::Ports)),
        Some("existing") => (Some(Kinds::Both), None),
        Some("existing_processes") => (Some(Kinds::Processes), None),
        Some("existing_ports") => (Some(Kinds::Ports), None),
        Some("new") => (None, Some(Kinds::Both)),
        Some("new_processes") => (None, Some(Kinds::Processes)),
        Some("new_ports") => (None, Some(Kinds::Ports)),
        _ => return Err(Exception::badarg()),
    };
    Ok(Target::Group { existing, new })
}

/// Which existing tracees a group with `flags` visits, as erts decides:
/// processes for a process event flag, ports for a port event flag, both
/// (of those the group names) for a flag both have (`send`, a timestamp).
fn visits(kinds: Kinds, flags: TraceFlags) -> (bool, bool) {
    let modifiers = flags.intersects(port_probes::MODIFIERS);
    let processes = flags.intersects(port_probes::PROCESS_FLAGS - port_probes::MODIFIERS);
    let ports = flags.intersects(port_probes::PORT_EVENTS);
    (
        kinds.processes() && (processes || modifiers),
        kinds.ports() && (ports || modifiers),
    )
}

/// Parses the flag list: the flags, the tracer given with `{tracer, Pid}`
/// or `{tracer, Module, State}` (if any; only the legacy session takes
/// one) and the timestamp kind.
fn parse_flags(
    rt: &Runtime,
    p: &mut Process,
    session: &Session,
    list: Term,
) -> Result<(TraceFlags, Option<NamedTracer>, TimestampKind), Exception> {
    let items = list.list_to_vec().ok_or_else(Exception::badarg)?;
    let mut flags = TraceFlags::empty();
    let mut tracer = None;
    for item in items {
        if let Some(name) = item.as_atom() {
            flags |= TraceFlags::from_atom_name(name.name()).ok_or_else(bad_option)?;
            continue;
        }
        match item.as_tuple() {
            _ if !session.is_legacy() => return Err(bad_option()),
            Some(&[tag, pid]) if tag.as_atom().is_some_and(|a| a.name() == "tracer") => {
                if !pid.is_local_pid() && pid.as_local_port().is_none() {
                    return Err(bad_option());
                }
                tracer = Some(NamedTracer::Process(pid));
            }
            Some(&[tag, module, state]) if tag.as_atom().is_some_and(|a| a.name() == "tracer") => {
                let module = module.as_atom().ok_or_else(bad_option)?;
                match module_tracer(rt, module, state)? {
                    Some(t) => tracer = Some(t),
                    None => return Err(not_a_tracer(p, module, state)),
                }
            }
            _ => return Err(bad_option()),
        }
    }
    let timestamp = if flags.contains(TraceFlags::STRICT_MONOTONIC_TIMESTAMP) {
        TimestampKind::StrictMonotonic
    } else if flags.contains(TraceFlags::MONOTONIC_TIMESTAMP) {
        TimestampKind::Monotonic
    } else if flags.contains(TraceFlags::TIMESTAMP) {
        TimestampKind::Now
    } else {
        TimestampKind::None
    };
    Ok((flags, tracer, timestamp))
}

/// `error:{notsup, What}`: a part of the tracing API beamr does not have yet.
pub(super) fn not_implemented(p: &mut Process, what: &str) -> Exception {
    let what = Atom::new(what).map_or(Term::NIL, Term::atom);
    let notsup = Term::atom(Atom::new("notsup").expect("atom"));
    Exception::error(p.heap.tuple(&[notsup, what]))
}

/// `erlang:trace(PidSpec, How, FlagList)`: the number of processes whose
/// flags were changed (in the legacy session).
fn trace3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    trace_in(rt, p, Session::legacy(), a[0], a[1], a[2])
}

/// A tracer that sends the BEAM's trace messages to `to` (a process or a
/// port), with timestamps of `timestamp`.
pub(super) fn message_tracer(
    rt: &Runtime,
    p: &mut Process,
    to: Term,
    timestamp: TimestampKind,
) -> Result<Arc<dyn beamr_trace::Tracer>, Exception> {
    if to.as_local_port().is_some() {
        let port = rt.ports.get(to).ok_or_else(Exception::badarg)?;
        let delivery = PortDelivery { port };
        return Ok(Arc::new(MessageTracer::new(to, timestamp, delivery)));
    }
    let Some(weak) = rt.weak_self.get().cloned() else {
        return Err(not_implemented(p, "tracing outside run_main"));
    };
    let delivery = ProcessDelivery::new(rt, weak, to);
    Ok(Arc::new(MessageTracer::new(to, timestamp, delivery)))
}

/// `erlang:trace/3` in `session` (`trace:process/4`): the number of
/// processes whose flags were changed.
pub(super) fn trace_in(
    rt: &Runtime,
    p: &mut Process,
    session: &Arc<Session>,
    pid_spec: Term,
    how: Term,
    flag_list: Term,
) -> Result<Term, Exception> {
    let (flags, named, timestamp) = parse_flags(rt, p, session, flag_list)?;
    let set = match how {
        Term::TRUE => true,
        Term::FALSE => false,
        _ => return Err(Exception::badarg()),
    };
    let target = target(pid_spec)?;
    let named = named.unwrap_or_else(|| match session.tracer() {
        Some(SessionTracer::Process(t)) => NamedTracer::Process(*t),
        Some(SessionTracer::Module(m)) => NamedTracer::Module(m.clone()),
        None => NamedTracer::Process(p.pid),
    });
    let tracer = match named {
        NamedTracer::Process(to) => {
            if set && to.is_local_pid() && rt.processes.get(to).is_none() && to != p.pid {
                return Err(Exception::badarg());
            }
            message_tracer(rt, p, to, timestamp)?
        }
        NamedTracer::Module(t) => t,
    };
    let change = TraceChange {
        session: Arc::clone(session),
        set,
        flags,
        tracer,
    };
    // erl_tracer's trace_status: a tracer set on a tracee is asked first,
    // and one that answers remove leaves it untraced (still counted).
    let takes = |tracee: Term| {
        !set || Tracee::from_term(tracee)
            .is_none_or(|t| change.tracer.trace_status(t) != Decision::Remove)
    };
    let change_one = |pid: Term, p: &mut Process| -> bool {
        if !takes(pid) {
            return pid == p.pid || rt.processes.get(pid).is_some();
        }
        if pid == p.pid {
            p.trace.apply(&change);
            true
        } else {
            rt.send_signal(pid, Signal::Trace(change.clone()))
        }
    };
    let change_port = |id: Term| -> bool {
        let Some(port) = rt.ports.get(id) else {
            return false;
        };
        let mut state = port.state();
        if state.closed {
            return false;
        }
        if takes(id) {
            state.trace.apply(&change);
        }
        true
    };
    let count = match target {
        Target::One(pid) => {
            if !change_one(pid, p) {
                return Err(Exception::badarg());
            }
            1
        }
        Target::Port(id) => {
            if !change_port(id) {
                return Err(Exception::badarg());
            }
            1
        }
        Target::Group { existing, new } => {
            let mut count = 0;
            if let Some(kinds) = existing {
                // The tracer too, as erts counts (its own events are
                // never sent to it).
                let (processes, ports) = visits(kinds, flags);
                if processes {
                    count += rt
                        .processes
                        .pids()
                        .into_iter()
                        .filter(|&pid| change_one(pid, p))
                        .count();
                }
                if ports {
                    count += rt
                        .ports
                        .ids()
                        .into_iter()
                        .filter(|&id| change_port(id))
                        .count();
                }
            }
            if let Some(kinds) = new.filter(|_| takes(p.pid)) {
                let for_kind = |mask: TraceFlags| TraceChange {
                    flags: flags & mask,
                    ..change.clone()
                };
                if kinds.processes() && flags.intersects(port_probes::PROCESS_FLAGS) {
                    rt.trace
                        .change_new_processes(&for_kind(port_probes::PROCESS_FLAGS));
                }
                if kinds.ports() && flags.intersects(port_probes::PORT_FLAGS) {
                    rt.trace
                        .change_new_ports(&for_kind(port_probes::PORT_FLAGS));
                }
            }
            count as i64
        }
    };
    Ok(Term::small_unchecked(count))
}

/// `erlang:trace_delivered(Tracee)`: beamr delivers a trace message when its
/// event happens, so every one is delivered already; the answer
/// `{trace_delivered, Tracee, Ref}` comes at once.
pub(super) fn trace_delivered(
    rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    if !(a[0].is_local_pid() || a[0] == Term::atom(Atom::new("all").expect("atom"))) {
        return Err(Exception::badarg());
    }
    let reference = p.heap.local_ref(rt.new_ref_ids());
    let tag = Term::atom(Atom::new("trace_delivered").expect("atom"));
    let reply = p.heap.tuple(&[tag, a[0], reference]);
    signals::deliver_to_self(rt, p, reply);
    Ok(reference)
}
