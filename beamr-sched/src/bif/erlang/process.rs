//! `erlang` BIFs on a process's own state and on inspecting processes:
//! `process_flag`, the process dictionary, the group leader, `processes`,
//! `process_info`.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::gc_flags;
use super::process_info::{process_info, Snapshot, Wanted};
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "process_flag", 2, process_flag),
    ("erlang", "get", 0, get0),
    ("erlang", "get", 1, get1),
    ("erlang", "put", 2, put2),
    ("erlang", "erase", 0, erase0),
    ("erlang", "erase", 1, erase1),
    ("erlang", "get_keys", 0, get_keys0),
    ("erlang", "get_keys", 1, get_keys1),
    ("erlang", "group_leader", 0, group_leader0),
    ("erlang", "group_leader", 2, group_leader2),
    ("erlang", "processes", 0, processes),
    ("erlang", "process_info", 1, process_info1),
    ("erlang", "process_info", 2, process_info2),
];

fn process_flag(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if let Some(options) = monitor_nodes_options(a[0]) {
        // net_kernel:monitor_nodes/1,2: the subscription's count before.
        let options = options.ok_or_else(Exception::badarg)?;
        let on = super::arith::boolean(a[1])?;
        let before = crate::dist::nodes_monitor::set(p.pid, options, on);
        return Ok(p.heap.int(before as i64));
    }
    match a[0].as_atom().map(Atom::name) {
        Some("trap_exit") => {
            let new = a[1] == Term::TRUE;
            if !new && a[1] != Term::FALSE {
                return Err(Exception::badarg());
            }
            let old = p.trap_exit;
            p.trap_exit = new;
            Ok(Term::bool(old))
        }
        // Recorded; the schedulers do not act on it yet.
        Some("priority") => {
            let level = priority_level(a[1])?;
            Ok(Term::atom(std::mem::replace(&mut p.priority, level)))
        }
        Some("min_heap_size") => {
            let new = gc_flags::min_heap_size(a[1])?;
            let old = p.heap.min_heap_size();
            p.heap.set_min_heap_size(new as usize);
            Ok(p.heap.int(old as i64))
        }
        Some("min_bin_vheap_size") => {
            let new = gc_flags::min_bin_vheap_size(a[1])?;
            let old = std::mem::replace(&mut p.gc.min_bin_vheap_size, new);
            Ok(p.heap.int(old as i64))
        }
        Some("fullsweep_after") => {
            let new = gc_flags::fullsweep_after(a[1])?;
            let old = p.heap.fullsweep_after();
            p.heap.set_fullsweep_after(new);
            Ok(Term::small_unchecked(old as i64))
        }
        Some("max_heap_size") => {
            let new = gc_flags::max_heap_size(a[1], p.heap.min_heap_size() as u64, true)?;
            let old = std::mem::replace(&mut p.gc.max_heap, new);
            Ok(gc_flags::max_heap_size_term(&mut p.heap, old))
        }
        Some("message_queue_data") => {
            let new = gc_flags::message_queue_data(a[1])?;
            let old = std::mem::replace(&mut p.gc.off_heap_messages, new);
            Ok(gc_flags::message_queue_data_term(old))
        }
        Some("error_handler") => {
            let new = a[1].as_atom().ok_or_else(Exception::badarg)?;
            Ok(Term::atom(std::mem::replace(&mut p.error_handler, new)))
        }
        Some("async_dist") if crate::code::otp_release() >= 26 => {
            let new = super::arith::boolean(a[1])?;
            let old = std::mem::replace(&mut p.async_dist, new);
            Ok(Term::bool(old))
        }
        _ => Err(Exception::badarg()),
    }
}

/// The nodes-monitor options a `process_flag/2` flag names: `Some` for
/// `monitor_nodes` (none) and `{monitor_nodes, Options}` (`None` inside
/// when erts refuses the options); `None` for any other flag.
fn monitor_nodes_options(flag: Term) -> Option<Option<crate::dist::nodes_monitor::Options>> {
    let name = Atom::new("monitor_nodes").ok()?;
    if flag == Term::atom(name) {
        return Some(crate::dist::nodes_monitor::Options::parse(Term::NIL));
    }
    match flag.as_tuple() {
        Some([tag, options]) if *tag == Term::atom(name) => {
            // `[]` is the plain flag's; a map is what net_kernel passes.
            Some(
                options
                    .is_map()
                    .then(|| crate::dist::nodes_monitor::Options::parse(*options))
                    .flatten(),
            )
        }
        _ => None,
    }
}

/// A valid priority level.
pub(super) fn priority_level(t: Term) -> Result<Atom, Exception> {
    t.as_atom()
        .filter(|a| matches!(a.name(), "low" | "normal" | "high" | "max"))
        .ok_or_else(Exception::badarg)
}

fn dict_index(p: &Process, key: Term) -> Option<usize> {
    (0..p.dictionary.len())
        .step_by(2)
        .find(|&i| beamr_core::order::exact_eq(p.dictionary[i], key))
}

pub(super) fn get0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let pairs: Vec<Term> = p
        .dictionary
        .clone()
        .chunks(2)
        .map(|kv| p.heap.tuple(kv))
        .collect();
    Ok(p.heap.list(&pairs))
}

pub(super) fn get1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    Ok(dict_index(p, a[0]).map_or(Term::atom(Atom::UNDEFINED), |i| p.dictionary[i + 1]))
}

fn put2(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    match dict_index(p, a[0]) {
        Some(i) => Ok(std::mem::replace(&mut p.dictionary[i + 1], a[1])),
        None => {
            p.dictionary.push(a[0]);
            p.dictionary.push(a[1]);
            Ok(Term::atom(Atom::UNDEFINED))
        }
    }
}

fn erase0(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let all = get0(rt, p, a)?;
    p.dictionary.clear();
    Ok(all)
}

fn erase1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    match dict_index(p, a[0]) {
        Some(i) => {
            let v = p.dictionary[i + 1];
            p.dictionary.drain(i..i + 2);
            Ok(v)
        }
        None => Ok(Term::atom(Atom::UNDEFINED)),
    }
}

fn get_keys0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let keys: Vec<Term> = p.dictionary.iter().step_by(2).copied().collect();
    Ok(p.heap.list(&keys))
}

fn get_keys1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let keys: Vec<Term> = p
        .dictionary
        .chunks(2)
        .filter(|kv| beamr_core::order::exact_eq(kv[1], a[0]))
        .map(|kv| kv[0])
        .collect();
    Ok(p.heap.list(&keys))
}

fn group_leader0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(p.group_leader)
}

fn group_leader2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_pid() || !a[1].is_local_pid() {
        return Err(Exception::badarg());
    }
    if a[1] == p.pid {
        p.group_leader = a[0];
        return Ok(Term::TRUE);
    }
    let handle = rt.processes.get(a[1]).ok_or_else(Exception::badarg)?;
    let mut body = handle.body.lock().unwrap_or_else(|e| e.into_inner());
    let other = body.as_mut().ok_or_else(Exception::badarg)?;
    other.group_leader = a[0];
    Ok(Term::TRUE)
}

pub(super) fn processes(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let pids = rt.processes.pids();
    Ok(p.heap.list(&pids))
}

fn process_info2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_local_pid() {
        return Err(Exception::badarg());
    }
    if a[0] == p.pid {
        let wanted = Wanted::of(a[1]);
        let trace = wanted.stacktrace.then(|| suspended_stacktrace(p));
        let mut snap = Snapshot::of(p, "running", &wanted);
        snap.stacktrace = trace.unwrap_or(Term::NIL);
        return process_info(p, snap, a[1], false);
    }
    if !super::process_info::known_items(a[1]) {
        return Err(Exception::badarg());
    }
    let Some(handle) = rt.processes.get(a[0]) else {
        return Ok(Term::atom(Atom::UNDEFINED));
    };
    let mut body = handle.body.lock().unwrap_or_else(|e| e.into_inner());
    let Some(other) = body.as_mut() else {
        return Ok(Term::atom(Atom::UNDEFINED));
    };
    // Held by its lock, the process is not running: it waits for a
    // message, or it is queued to run (or was scheduled out mid-work).
    let status = if handle.state.is_waiting() {
        "waiting"
    } else {
        "runnable"
    };
    // Where the (suspended) process is: built on its heap, copied below.
    let wanted = Wanted::of(a[1]);
    let trace = wanted.stacktrace.then(|| suspended_stacktrace(other));
    let mut snap = Snapshot::of(other, status, &wanted);
    snap.stacktrace = trace.unwrap_or(Term::NIL);
    process_info(p, snap, a[1], true)
}

/// `process_info(Pid)`: the BEAM's default items (`registered_name` only
/// when registered), or `undefined` for a dead process.
fn process_info1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut names = vec![
        "current_function",
        "initial_call",
        "status",
        "message_queue_len",
        "links",
        "dictionary",
        "trap_exit",
        "error_handler",
        "priority",
        "group_leader",
        "total_heap_size",
        "heap_size",
        "stack_size",
        "reductions",
        "garbage_collection",
        "suspending",
    ];
    let name = process_info2(
        rt,
        p,
        &[
            a[0],
            Term::atom(Atom::new("registered_name").expect("atom")),
        ],
    )?;
    if name == Term::atom(Atom::UNDEFINED) {
        return Ok(name);
    }
    if name != Term::NIL {
        names.insert(0, "registered_name");
    }
    let items: Vec<Term> = names
        .iter()
        .map(|n| Term::atom(Atom::new(n).expect("atom")))
        .collect();
    let list = p.heap.list(&items);
    process_info2(rt, p, &[a[0], list])
}

/// The stack trace of `p` at its current instruction (for the caller of
/// process_info/2, the call of process_info itself), on `p`'s heap.
fn suspended_stacktrace(p: &mut Process) -> Term {
    let mut e = Exception::error(Term::NIL);
    // Not a list: the frame shows the arity, not arguments.
    e.args = Term::atom(Atom::UNDEFINED);
    let ip = crate::interp::suspended_at(p.ip.cast());
    crate::interp::build_stacktrace(p, ip, &e)
}
