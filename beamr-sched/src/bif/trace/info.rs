//! `erlang:trace_info/2`: how a process, the processes to come, a
//! function or the `on_load` pattern is traced, as the BEAM answers.
//!
//! ```text
//! subject              items                               answer
//! Pid                  flags, tracer                       {Item, Value}; undefined if dead
//! new | new_processes  flags, tracer                       what new processes start with
//! Port                 flags, tracer                       {Item, Value}; undefined if closed
//! new_ports            flags, tracer                       what new ports start with
//! {M, F, A}            traced, match_spec, meta,           {Item, Value}; Value undefined for
//!                      meta_match_spec, call_count,        no such function (or a wildcard)
//!                      call_time, (call_memory,) all
//! on_load              as {M, F, A}                        the on_load pattern (call_time
//!                                                          and call_memory: false)
//! send | 'receive'     match_spec                          true, false or the specification
//! ```
//!
//! Each answers for one trace session: `erlang:trace_info/2` for the
//! legacy one, `trace:info/3` (`erts_internal:trace_info/3`) for a
//! session's own.

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::TraceFlags;

use crate::code::{otp_release, CodeServer};
use crate::loader::BifRow;
use crate::matchspec::MatchSpec;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;
use crate::trace::call_patterns::{self, FunctionTrace, Spec};
use crate::trace::{EventPattern, MessageEvent, ProcessTrace, Session};

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("erlang", "trace_info", 2, trace_info)];

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("a short atom name"))
}

/// `erlang:trace_info(PidPortFuncEvent, Item)`.
fn trace_info(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    trace_info_in(rt, p, Session::legacy(), a[0], a[1])
}

/// How `subject` is traced in a process's body, if it is alive, once the
/// signals already sent to it have taken effect: an `erlang:trace/3` the
/// caller just made shows at once, as on the BEAM.
pub(super) fn process_trace_of(rt: &Runtime, p: &Process, subject: Term) -> Option<ProcessTrace> {
    if subject == p.pid {
        return Some(p.trace.clone());
    }
    let handle = rt.processes.get(subject)?;
    let mut body = handle.body.lock().unwrap_or_else(|e| e.into_inner());
    let other = body.as_mut()?;
    if handle.has_signals() {
        crate::signals::deliver_signals(rt, &handle, other);
    }
    Some(other.trace.clone())
}

/// `erlang:trace_info/2` for `session` (`trace:info/3`).
pub(super) fn trace_info_in(
    rt: &Runtime,
    p: &mut Process,
    session: &Session,
    subject: Term,
    item: Term,
) -> Result<Term, Exception> {
    let item_name = item
        .as_atom()
        .map(Atom::name)
        .ok_or_else(Exception::badarg)?;
    if subject.is_local_pid() {
        if !matches!(item_name, "flags" | "tracer") {
            return Err(Exception::badarg());
        }
        let Some(trace) = process_trace_of(rt, p, subject) else {
            return Ok(Term::atom(Atom::UNDEFINED));
        };
        let value = process_item(p, session, &trace, item_name);
        return Ok(p.heap.tuple(&[item, value]));
    }
    if subject.is_local_port() {
        if !matches!(item_name, "flags" | "tracer") {
            return Err(Exception::badarg());
        }
        let Some(trace) = rt.ports.get(subject).map(|port| port.state().trace.clone()) else {
            return Ok(Term::atom(Atom::UNDEFINED));
        };
        let value = process_item(p, session, &trace, item_name);
        return Ok(p.heap.tuple(&[item, value]));
    }
    if let Some(&[m, f, arity]) = subject.as_tuple() {
        let value = match function(session, m, f, arity) {
            Some(trace) => function_item(p, &trace, item_name, true)?,
            None => {
                function_item(p, &FunctionTrace::default(), item_name, true)?;
                Term::atom(Atom::UNDEFINED)
            }
        };
        return Ok(p.heap.tuple(&[item, value]));
    }
    match subject.as_atom().map(Atom::name) {
        Some(new @ ("new" | "new_processes" | "new_ports")) => {
            if !matches!(item_name, "flags" | "tracer") {
                return Err(Exception::badarg());
            }
            // What erts keeps: nothing once the tracer has died.
            let trace = if new == "new_ports" {
                rt.trace.new_ports()
            } else {
                rt.trace.for_new_process()
            };
            let trace = trace.without_dead_tracers();
            let value = process_item(p, session, &trace, item_name);
            Ok(p.heap.tuple(&[item, value]))
        }
        Some("on_load") => {
            // No clocks or memory counts for functions not loaded yet (OTP
            // 25, which has no call_memory, answers for it only while no
            // on_load pattern is set).
            let trace = call_patterns::on_load(session);
            let value = match item_name {
                "call_time" => Term::FALSE,
                "call_memory" if otp_release() >= 26 || trace.is_empty() => Term::FALSE,
                _ => function_item(p, &trace, item_name, false)?,
            };
            Ok(p.heap.tuple(&[item, value]))
        }
        Some(event @ ("send" | "receive")) => {
            if item_name != "match_spec" {
                return Err(Exception::badarg());
            }
            let event = if event == "send" {
                MessageEvent::Send
            } else {
                MessageEvent::Receive
            };
            let value = match session.event_pattern(event) {
                EventPattern::All => Term::TRUE,
                EventPattern::Off => Term::FALSE,
                EventPattern::Spec(ms) => match ms.downcast_ref::<MatchSpec>() {
                    Some(ms) => p.heap.copy_term(ms.source()),
                    None => Term::TRUE,
                },
            };
            Ok(p.heap.tuple(&[item, value]))
        }
        _ => Err(Exception::badarg()),
    }
}

/// `flags` or `tracer` of a process traced as `trace`, in `session`.
fn process_item(p: &mut Process, session: &Session, trace: &ProcessTrace, item: &str) -> Term {
    if item == "tracer" {
        // A pid, a port, or a tracer module's {Module, State}.
        return trace
            .tracer_term_in(session)
            .map_or(Term::NIL, |t| p.heap.copy_term(t));
    }
    // In the order erts lists them.
    const ORDER: &[TraceFlags] = &[
        TraceFlags::RUNNING_PROCS,
        TraceFlags::RUNNING_PORTS,
        TraceFlags::PORTS,
        TraceFlags::SCHEDULER_ID,
        TraceFlags::SILENT,
        TraceFlags::RETURN_TO,
        TraceFlags::ARITY,
        TraceFlags::GARBAGE_COLLECTION,
        TraceFlags::EXITING,
        TraceFlags::RUNNING,
        TraceFlags::SET_ON_FIRST_LINK,
        TraceFlags::SET_ON_LINK,
        TraceFlags::SET_ON_FIRST_SPAWN,
        TraceFlags::PROCS,
        TraceFlags::CALL,
        TraceFlags::SET_ON_SPAWN,
        TraceFlags::RECEIVE,
        TraceFlags::SEND,
        TraceFlags::MONOTONIC_TIMESTAMP,
        TraceFlags::STRICT_MONOTONIC_TIMESTAMP,
        TraceFlags::TIMESTAMP,
        TraceFlags::CPU_TIMESTAMP,
    ];
    let flags = trace.flags_in(session);
    let names: Vec<Term> = ORDER
        .iter()
        .filter(|f| flags.contains(**f))
        .filter_map(|f| f.atom_names().next())
        .map(atom)
        .collect();
    p.heap.list(&names)
}

/// The patterns of `{M, F, A}`: `None` if it names no function of a loaded
/// module (a wildcard names none).
fn function(session: &Session, m: Term, f: Term, arity: Term) -> Option<FunctionTrace> {
    let (m, f) = (m.as_atom()?, f.as_atom()?);
    let arity = u32::try_from(arity.as_small()?).ok()?;
    let module = CodeServer::global().current(m)?;
    if !module
        .functions
        .iter()
        .any(|x| x.name == f && x.arity == arity)
    {
        return None;
    }
    Some(call_patterns::of(session, m, f, arity).unwrap_or_default())
}

/// The value of `item` for a function traced as `trace` (`counts`: the
/// counters' values; for `on_load`, whether they are on).
fn function_item(
    p: &mut Process,
    trace: &FunctionTrace,
    item: &str,
    counts: bool,
) -> Result<Term, Exception> {
    let spec_term = |p: &mut Process, spec: &Spec| match spec
        .ms
        .as_ref()
        .and_then(|ms| ms.downcast_ref::<MatchSpec>())
    {
        Some(ms) => p.heap.copy_term(ms.source()),
        None => Term::NIL,
    };
    Ok(match item {
        "traced" => match &trace.call {
            Some(c) if c.local => atom("local"),
            Some(_) => atom("global"),
            None => Term::FALSE,
        },
        "match_spec" => match &trace.call {
            Some(c) => spec_term(p, &c.spec),
            None => Term::FALSE,
        },
        "meta" => match trace.meta.as_ref() {
            Some(m) => m
                .tracer
                .tracer_term()
                .map_or(Term::NIL, |t| p.heap.copy_term(t)),
            None => Term::FALSE,
        },
        "meta_match_spec" => match &trace.meta {
            Some(m) => spec_term(p, &m.spec),
            None => Term::FALSE,
        },
        "call_count" => match &trace.count {
            Some(c) if counts => p.heap.int(c.count() as i64),
            Some(_) => Term::TRUE,
            None => Term::FALSE,
        },
        "call_time" if counts => match &trace.time {
            Some(t) => {
                let rows: Vec<Term> = t
                    .snapshot()
                    .into_iter()
                    .map(|(pid, calls, ns)| {
                        let calls = p.heap.int(calls as i64);
                        let secs = p.heap.int((ns / 1_000_000_000) as i64);
                        let micros = p.heap.int((ns / 1000 % 1_000_000) as i64);
                        p.heap.tuple(&[pid, calls, secs, micros])
                    })
                    .collect();
                p.heap.list(&rows)
            }
            None => Term::FALSE,
        },
        // Per process: {Pid, Calls, Words}.
        "call_memory" if counts && otp_release() >= 26 => match &trace.memory {
            Some(m) => {
                let rows: Vec<Term> = m
                    .snapshot()
                    .into_iter()
                    .map(|(pid, calls, words)| {
                        let calls = p.heap.int(calls as i64);
                        let words = p.heap.int(words as i64);
                        p.heap.tuple(&[pid, calls, words])
                    })
                    .collect();
                p.heap.list(&rows)
            }
            None => Term::FALSE,
        },
        "all" => {
            if trace.is_empty() {
                return Ok(Term::FALSE);
            }
            let mut items = vec!["traced", "match_spec", "meta", "meta_match_spec"];
            if counts {
                // OTP 26+ lists call_memory first.
                if otp_release() >= 26 {
                    items.push("call_memory");
                }
                items.push("call_time");
            }
            items.push("call_count");
            let mut out = Vec::with_capacity(items.len());
            for name in items {
                let v = function_item(p, trace, name, counts)?;
                out.push(p.heap.tuple(&[atom(name), v]));
            }
            p.heap.list(&out)
        }
        _ => return Err(Exception::badarg()),
    })
}
