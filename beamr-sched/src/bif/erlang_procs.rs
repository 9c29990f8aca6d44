//! `erlang` BIFs on processes: spawning, sending, links, monitors, exit
//! signals, registered names, timers, the process dictionary, and
//! `process_info`.

use std::time::Duration;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::process_info::{process_info, Snapshot};
use crate::loader::BifRow;
use crate::process::{Exception, Payload, Process, Signal};
use crate::runtime::{AliasMode, Runtime, TimerAction};
use crate::sched::{SpawnOptions, SpawnTarget};
use crate::signals;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "spawn", 1, spawn1),
    ("erlang", "spawn", 3, spawn3),
    ("erlang", "spawn_link", 1, spawn_link1),
    ("erlang", "spawn_link", 3, spawn_link3),
    ("erlang", "spawn_monitor", 1, spawn_monitor1),
    ("erlang", "spawn_monitor", 3, spawn_monitor3),
    ("erlang", "spawn_opt", 2, spawn_opt2),
    ("erlang", "spawn_opt", 4, spawn_opt4),
    ("erlang", "send", 2, send2),
    ("erlang", "!", 2, send2),
    ("erlang", "send", 3, send3),
    ("erlang", "link", 1, link),
    ("erlang", "unlink", 1, unlink),
    ("erlang", "monitor", 2, monitor),
    ("erlang", "monitor", 3, monitor3),
    ("erlang", "alias", 0, alias0),
    ("erlang", "alias", 1, alias1),
    ("erlang", "unalias", 1, unalias),
    ("erlang", "demonitor", 1, demonitor1),
    ("erlang", "demonitor", 2, demonitor2),
    ("erlang", "exit", 2, exit2),
    ("erlang", "process_flag", 2, process_flag),
    ("erlang", "register", 2, register),
    ("erlang", "unregister", 1, unregister),
    ("erlang", "whereis", 1, whereis),
    ("erlang", "registered", 0, registered),
    ("erlang", "is_process_alive", 1, is_process_alive),
    ("erlang", "make_ref", 0, make_ref),
    ("erlang", "send_after", 3, send_after),
    ("erlang", "start_timer", 3, start_timer),
    ("erlang", "send_after", 4, send_after4),
    ("erlang", "start_timer", 4, start_timer4),
    ("erlang", "cancel_timer", 1, cancel_timer),
    ("erlang", "cancel_timer", 2, cancel_timer2),
    ("erlang", "read_timer", 1, read_timer),
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
    ("erlang", "node", 0, node0),
    ("erlang", "node", 1, node1),
    ("erlang", "nodes", 0, nodes),
    ("erlang", "is_alive", 0, is_alive),
    ("erlang", "list_to_pid", 1, list_to_pid),
    ("erlang", "pid_to_list", 1, pid_to_list),
    ("erlang", "ref_to_list", 1, ref_to_list),
    ("erlang", "statistics", 1, statistics),
    ("erlang", "fun_info_mfa", 1, fun_info_mfa),
    ("erlang", "port_to_list", 1, port_to_list),
];

fn spawn_with(
    rt: &Runtime,
    p: &mut Process,
    target: SpawnTarget,
    args: Term,
    options: SpawnOptions,
) -> Result<Term, Exception> {
    let args = args.list_to_vec().ok_or_else(Exception::badarg)?;
    let (pid, monitor) = rt.spawn(Some(p), target, &args, options)?;
    Ok(match monitor {
        Some(ids) => {
            let r = p.heap.local_ref(ids);
            p.heap.tuple(&[pid, r])
        }
        None => pid,
    })
}

fn mfa_target(m: Term, f: Term) -> Result<SpawnTarget, Exception> {
    match (m.as_atom(), f.as_atom()) {
        (Some(m), Some(f)) => Ok(SpawnTarget::Mfa(m, f)),
        _ => Err(Exception::badarg()),
    }
}

fn fun_target(f: Term) -> Result<SpawnTarget, Exception> {
    if f.is_fun() {
        Ok(SpawnTarget::Fun(f))
    } else {
        Err(Exception::badarg())
    }
}

fn spawn1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(rt, p, fun_target(a[0])?, Term::NIL, SpawnOptions::default())
}

fn spawn3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(
        rt,
        p,
        mfa_target(a[0], a[1])?,
        a[2],
        SpawnOptions::default(),
    )
}

fn spawn_link1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(
        rt,
        p,
        fun_target(a[0])?,
        Term::NIL,
        SpawnOptions {
            link: true,
            ..SpawnOptions::default()
        },
    )
}

fn spawn_link3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(
        rt,
        p,
        mfa_target(a[0], a[1])?,
        a[2],
        SpawnOptions {
            link: true,
            ..SpawnOptions::default()
        },
    )
}

fn spawn_monitor1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(
        rt,
        p,
        fun_target(a[0])?,
        Term::NIL,
        SpawnOptions {
            monitor: true,
            ..SpawnOptions::default()
        },
    )
}

fn spawn_monitor3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(
        rt,
        p,
        mfa_target(a[0], a[1])?,
        a[2],
        SpawnOptions {
            monitor: true,
            ..SpawnOptions::default()
        },
    )
}

fn spawn_options(opts: Term) -> Result<SpawnOptions, Exception> {
    let mut o = SpawnOptions::default();
    for opt in opts.list_to_vec().ok_or_else(Exception::badarg)? {
        match opt.as_atom().map(Atom::name) {
            Some("link") => o.link = true,
            Some("monitor") => o.monitor = true,
            _ => match opt.as_tuple() {
                Some(&[k, v]) if k.as_atom().is_some_and(|k| k.name() == "priority") => {
                    o.priority = Some(priority_level(v)?);
                }
                // Heap sizing, message-queue placement: accepted, no effect yet.
                Some(&[k, _])
                    if k.as_atom().is_some_and(|k| {
                        matches!(
                            k.name(),
                            "min_heap_size"
                                | "min_bin_vheap_size"
                                | "max_heap_size"
                                | "fullsweep_after"
                                | "message_queue_data"
                                | "async_dist"
                        )
                    }) => {}
                _ => return Err(Exception::badarg()),
            },
        }
    }
    Ok(o)
}

fn spawn_opt2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(rt, p, fun_target(a[0])?, Term::NIL, spawn_options(a[1])?)
}

fn spawn_opt4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    spawn_with(rt, p, mfa_target(a[0], a[1])?, a[2], spawn_options(a[3])?)
}

fn send2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    signals::send(rt, p, a[0], a[1])?;
    Ok(a[1])
}

/// `send(Dest, Msg, Options)`: `noconnect` and `nosuspend` change nothing
/// on one node; the message is sent and `ok` returned.
fn send3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let opts = a[2].list_to_vec().ok_or_else(Exception::badarg)?;
    if !opts.iter().all(|o| {
        o.as_atom()
            .is_some_and(|o| matches!(o.name(), "noconnect" | "nosuspend"))
    }) {
        return Err(Exception::badarg());
    }
    send2(rt, p, &a[..2])?;
    Ok(Term::OK)
}

fn link(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_local_pid() {
        return Err(Exception::badarg());
    }
    if a[0] == p.pid || p.links.contains(&a[0]) {
        return Ok(Term::TRUE);
    }
    if rt.send_signal(a[0], Signal::Link { from: p.pid }) {
        p.links.push(a[0]);
    } else if p.trap_exit {
        let msg = p
            .heap
            .tuple(&[Term::atom(Atom::EXIT), a[0], Term::atom(Atom::NOPROC)]);
        p.mailbox.push(msg);
    } else {
        return Err(Exception::error(Term::atom(Atom::NOPROC)));
    }
    Ok(Term::TRUE)
}

fn unlink(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_pid() {
        return Err(Exception::badarg());
    }
    p.links.retain(|&l| l != a[0]);
    rt.send_signal(a[0], Signal::Unlink { from: p.pid });
    Ok(Term::TRUE)
}

fn monitor(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if a[0] != Term::atom(Atom::PROCESS) {
        return Err(Exception::badarg());
    }
    // A name, local or as {Name, Node} for this node.
    let name = match a[1].as_tuple() {
        Some(&[name, node]) if node == Term::atom(Atom::NONODE_NOHOST) => {
            Some(name.as_atom().ok_or_else(Exception::badarg)?)
        }
        Some(_) => return Err(Exception::badarg()),
        None => a[1].as_atom(),
    };
    let target = match name {
        Some(name) => rt.names.whereis(name),
        None if a[1].is_local_pid() => Some(a[1]),
        None => return Err(Exception::badarg()),
    };
    let ids = rt.new_ref_ids();
    let reference = p.heap.local_ref(ids);
    let delivered = target.is_some_and(|pid| {
        rt.send_signal(
            pid,
            Signal::Monitor {
                from: p.pid,
                reference: Payload::copy(reference),
                name,
            },
        )
    });
    match (delivered, target) {
        (true, Some(pid)) => p.monitors.push((ids, pid, name)),
        _ => {
            // No such process: 'DOWN' with noproc at once; a name is
            // reported as {Name, Node}.
            let object = match name {
                Some(name) => p
                    .heap
                    .tuple(&[Term::atom(name), Term::atom(Atom::NONODE_NOHOST)]),
                None => a[1],
            };
            let msg = p.heap.tuple(&[
                Term::atom(Atom::DOWN),
                reference,
                a[0],
                object,
                Term::atom(Atom::NOPROC),
            ]);
            p.mailbox.push(msg);
        }
    }
    Ok(reference)
}

/// `{alias, Mode}` and `{tag, Tag}` (not supported: badarg) options.
fn monitor3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let opts = a[2].list_to_vec().ok_or_else(Exception::badarg)?;
    let mut mode = None;
    for opt in opts {
        let pair = opt
            .as_tuple()
            .filter(|t| t.len() == 2)
            .ok_or_else(Exception::badarg)?;
        match (
            pair[0].as_atom().map(Atom::name),
            pair[1].as_atom().map(Atom::name),
        ) {
            (Some("alias"), Some("explicit_unalias")) => mode = Some(AliasMode::Explicit),
            (Some("alias"), Some("demonitor")) => mode = Some(AliasMode::Demonitor),
            (Some("alias"), Some("reply_demonitor")) => mode = Some(AliasMode::ReplyDemonitor),
            _ => return Err(Exception::badarg()),
        }
    }
    let reference = monitor(rt, p, &a[..2])?;
    if let Some(mode) = mode {
        let ids = ref_ids(reference)?;
        rt.aliases
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(ids, (p.pid, mode));
    }
    Ok(reference)
}

fn alias0(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    alias1(rt, p, &[Term::NIL])
}

/// `alias(Opts)`: `[]` or `[explicit_unalias]`, or `[reply]`.
fn alias1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut mode = AliasMode::Explicit;
    for opt in a[0].list_to_vec().ok_or_else(Exception::badarg)? {
        match opt.as_atom().map(Atom::name) {
            Some("explicit_unalias") => mode = AliasMode::Explicit,
            Some("reply") => mode = AliasMode::Reply,
            _ => return Err(Exception::badarg()),
        }
    }
    let ids = rt.new_ref_ids();
    rt.aliases
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(ids, (p.pid, mode));
    Ok(p.heap.local_ref(ids))
}

fn unalias(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ids = ref_ids(a[0])?;
    let mut aliases = rt.aliases.lock().unwrap_or_else(|e| e.into_inner());
    let owned = aliases.get(&ids).is_some_and(|&(owner, _)| owner == p.pid);
    if owned {
        aliases.remove(&ids);
    }
    Ok(Term::bool(owned))
}

fn ref_ids(t: Term) -> Result<[u32; 3], Exception> {
    let r = t.as_ref().ok_or_else(Exception::badarg)?;
    Ok([r.ids[0], r.ids[1], r.ids[2]])
}

fn demonitor1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ids = ref_ids(a[0])?;
    rt.monitor_ended(ids);
    if let Some(i) = p.monitors.iter().position(|(m, _, _)| *m == ids) {
        let (_, target, _) = p.monitors.swap_remove(i);
        rt.send_signal(
            target,
            Signal::Demonitor {
                from: p.pid,
                reference: Payload::copy(a[0]),
            },
        );
    }
    Ok(Term::TRUE)
}

fn demonitor2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ids = ref_ids(a[0])?;
    let existed = p.monitors.iter().any(|(m, _, _)| *m == ids);
    demonitor1(rt, p, &a[..1])?;
    let opts = a[1].list_to_vec().ok_or_else(Exception::badarg)?;
    let flush = opts
        .iter()
        .any(|o| o.as_atom().is_some_and(|a| a.name() == "flush"));
    let info = opts
        .iter()
        .any(|o| o.as_atom().is_some_and(|a| a.name() == "info"));
    if flush {
        // A 'DOWN' already sent may still be in the inbox: take it in first.
        if let Some(handle) = rt.processes.get(p.pid) {
            signals::deliver_signals(rt, &handle, p);
        }
        p.mailbox.remove_where(|m| {
            m.as_tuple().is_some_and(|t| {
                t.len() == 5
                    && t[0] == Term::atom(Atom::DOWN)
                    && t[1]
                        .as_ref()
                        .is_some_and(|r| [r.ids[0], r.ids[1], r.ids[2]] == ids)
            })
        });
    }
    Ok(if info {
        Term::bool(existed)
    } else {
        Term::TRUE
    })
}

fn exit2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let target = if a[0].is_local_pid() {
        a[0]
    } else if a[0].is_pid() {
        return Ok(Term::TRUE);
    } else {
        return Err(Exception::badarg());
    };
    if target == p.pid {
        return exit_self(p, rt, a[1]);
    }
    rt.send_signal(
        target,
        Signal::Exit {
            from: p.pid,
            reason: Payload::copy(a[1]),
            linked: false,
        },
    );
    Ok(Term::TRUE)
}

/// `exit(self(), Reason)`: takes effect before the BIF returns. A trapping
/// process gets the `'EXIT'` message (unless the reason is `kill`); any
/// other ends now, raising the exit reason (`killed` for `kill`, `normal`
/// included). Should code catch that exception, the exit signal, also sent
/// to the inbox, ends the process at its next scheduling point.
fn exit_self(p: &mut Process, rt: &Runtime, reason: Term) -> Result<Term, Exception> {
    let kill = reason == Term::atom(Atom::KILL);
    if p.trap_exit && !kill {
        let msg = p.heap.tuple(&[Term::atom(Atom::EXIT), p.pid, reason]);
        p.mailbox.push(msg);
        return Ok(Term::TRUE);
    }
    rt.send_signal(
        p.pid,
        Signal::Exit {
            from: p.pid,
            reason: Payload::copy(reason),
            linked: false,
        },
    );
    Err(Exception::exit(if kill {
        Term::atom(Atom::KILLED)
    } else {
        reason
    }))
}

fn process_flag(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
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
        // Accepted for compatibility; beamr does not act on them yet.
        Some("priority") => {
            let level = priority_level(a[1])?;
            Ok(Term::atom(std::mem::replace(&mut p.priority, level)))
        }
        Some("min_heap_size" | "min_bin_vheap_size" | "fullsweep_after") => {
            Ok(Term::small_unchecked(0))
        }
        Some("message_queue_data") => Ok(Term::atom(Atom::new("on_heap").expect("atom"))),
        _ => Err(Exception::badarg()),
    }
}

/// A valid priority level.
fn priority_level(t: Term) -> Result<Atom, Exception> {
    t.as_atom()
        .filter(|a| matches!(a.name(), "low" | "normal" | "high" | "max"))
        .ok_or_else(Exception::badarg)
}

fn register(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = a[0]
        .as_atom()
        .filter(|&n| n != Atom::UNDEFINED)
        .ok_or_else(Exception::badarg)?;
    let pid = a[1];
    if !pid.is_local_pid() || rt.processes.get(pid).is_none() {
        return Err(Exception::badarg());
    }
    if pid == p.pid {
        if p.registered_name.is_some() || !rt.names.register(name, pid) {
            return Err(Exception::badarg());
        }
        p.registered_name = Some(name);
        return Ok(Term::TRUE);
    }
    let handle = rt.processes.get(pid).ok_or_else(Exception::badarg)?;
    let mut body = handle.body.lock().unwrap_or_else(|e| e.into_inner());
    let other = body.as_mut().ok_or_else(Exception::badarg)?;
    if other.registered_name.is_some() || !rt.names.register(name, pid) {
        return Err(Exception::badarg());
    }
    other.registered_name = Some(name);
    Ok(Term::TRUE)
}

fn unregister(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = a[0].as_atom().ok_or_else(Exception::badarg)?;
    let pid = rt.names.whereis(name).ok_or_else(Exception::badarg)?;
    rt.names.unregister(name);
    if pid == p.pid {
        p.registered_name = None;
    } else if let Some(handle) = rt.processes.get(pid) {
        if let Some(other) = handle
            .body
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
        {
            other.registered_name = None;
        }
    }
    Ok(Term::TRUE)
}

fn whereis(rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = a[0].as_atom().ok_or_else(Exception::badarg)?;
    Ok(rt
        .names
        .whereis(name)
        .unwrap_or(Term::atom(Atom::UNDEFINED)))
}

fn registered(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let names: Vec<Term> = rt.names.names().into_iter().map(Term::atom).collect();
    Ok(p.heap.list(&names))
}

fn is_process_alive(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_local_pid() {
        return Err(Exception::badarg());
    }
    Ok(Term::bool(
        a[0] == p.pid || rt.processes.get(a[0]).is_some_and(|h| !h.state.is_exited()),
    ))
}

fn make_ref(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let ids = rt.new_ref_ids();
    Ok(p.heap.local_ref(ids))
}

/// Marks a reference's third id word as a timer reference.
const TIMER_REF_TAG: u32 = 0x7100_0000;

fn timer(rt: &Runtime, p: &mut Process, a: &[Term], wrap: bool) -> Result<Term, Exception> {
    let ms = a[0]
        .as_small()
        .and_then(|v| u64::try_from(v).ok())
        .ok_or_else(Exception::badarg)?;
    let to = a[1];
    if !(to.is_local_pid() || to.is_atom()) {
        return Err(Exception::badarg());
    }
    let msg = a[2];
    let id = rt.timers.start(Duration::from_millis(ms), |id| {
        let mut heap = beamr_core::heap::Heap::new();
        let mut term = heap.copy_term(msg);
        if wrap {
            let r = heap.local_ref(timer_ref_ids(id));
            term = heap.tuple(&[Term::atom(Atom::TIMEOUT), r, term]);
        }
        TimerAction::Send {
            to,
            message: Payload {
                term,
                heap: Some(heap),
            },
        }
    });
    Ok(p.heap.local_ref(timer_ref_ids(id)))
}

/// `send_after/4` and `start_timer/4`: the options are `{abs, Bool}`; an
/// absolute time is in monotonic milliseconds.
fn timer_with_options(
    rt: &Runtime,
    p: &mut Process,
    a: &[Term],
    wrap: bool,
) -> Result<Term, Exception> {
    let mut abs = false;
    for opt in a[3].list_to_vec().ok_or_else(Exception::badarg)? {
        match opt.as_tuple() {
            Some(&[k, v])
                if k.as_atom().is_some_and(|k| k.name() == "abs")
                    && (v == Term::TRUE || v == Term::FALSE) =>
            {
                abs = v == Term::TRUE;
            }
            _ => return Err(Exception::badarg()),
        }
    }
    if !abs {
        return timer(rt, p, &a[..3], wrap);
    }
    let at = a[0].as_small().ok_or_else(Exception::badarg)?;
    let now = super::erlang_terms::monotonic_nanos() / 1_000_000;
    let relative = Term::small_unchecked(at.saturating_sub(now).max(0));
    timer(rt, p, &[relative, a[1], a[2]], wrap)
}

fn send_after4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    timer_with_options(rt, p, a, false)
}

fn start_timer4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    timer_with_options(rt, p, a, true)
}

fn timer_ref_ids(id: u64) -> [u32; 3] {
    [id as u32, (id >> 32) as u32, TIMER_REF_TAG]
}

fn send_after(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    timer(rt, p, a, false)
}

fn start_timer(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    timer(rt, p, a, true)
}

fn timer_id(t: Term) -> Result<u64, Exception> {
    let r = t.as_ref().ok_or_else(Exception::badarg)?;
    if r.ids[2] != TIMER_REF_TAG {
        return Ok(0);
    }
    Ok(r.ids[0] as u64 | (r.ids[1] as u64) << 32)
}

fn cancel_timer(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let id = timer_id(a[0])?;
    Ok(match rt.timers.cancel(id) {
        Some(left) => p.heap.int(left.as_millis() as i64),
        None => Term::FALSE,
    })
}

/// `cancel_timer(TRef, [{async, A}, {info, I}])`: with `async`, the result
/// comes as a `{cancel_timer, TRef, Result}` message (when `info`, the
/// default) and the call returns `ok`; without `info`, the call returns `ok`.
fn cancel_timer2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (mut asynchronous, mut info) = (false, true);
    for opt in a[1].list_to_vec().ok_or_else(Exception::badarg)? {
        match opt.as_tuple() {
            Some(&[k, v]) if v == Term::TRUE || v == Term::FALSE => {
                match k.as_atom().map(Atom::name) {
                    Some("async") => asynchronous = v == Term::TRUE,
                    Some("info") => info = v == Term::TRUE,
                    _ => return Err(Exception::badarg()),
                }
            }
            _ => return Err(Exception::badarg()),
        }
    }
    let result = cancel_timer(rt, p, &a[..1])?;
    if asynchronous {
        if info {
            let msg = p.heap.tuple(&[
                Term::atom(Atom::new("cancel_timer").expect("atom")),
                a[0],
                result,
            ]);
            p.mailbox.push(msg);
        }
        return Ok(Term::OK);
    }
    Ok(if info { result } else { Term::OK })
}

fn read_timer(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let id = timer_id(a[0])?;
    Ok(match rt.timers.remaining(id) {
        Some(left) => p.heap.int(left.as_millis() as i64),
        None => Term::FALSE,
    })
}

fn dict_index(p: &Process, key: Term) -> Option<usize> {
    (0..p.dictionary.len())
        .step_by(2)
        .find(|&i| beamr_core::order::exact_eq(p.dictionary[i], key))
}

fn get0(_rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let pairs: Vec<Term> = p
        .dictionary
        .clone()
        .chunks(2)
        .map(|kv| p.heap.tuple(kv))
        .collect();
    Ok(p.heap.list(&pairs))
}

fn get1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
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

fn processes(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let pids = rt.processes.pids();
    Ok(p.heap.list(&pids))
}

fn process_info2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_local_pid() {
        return Err(Exception::badarg());
    }
    if a[0] == p.pid {
        let trace = mentions(a[1], "current_stacktrace").then(|| suspended_stacktrace(p));
        let mut snap = Snapshot::of(p, true);
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
    // Where the (suspended) process is: built on its heap, copied below.
    let trace = mentions(a[1], "current_stacktrace").then(|| suspended_stacktrace(other));
    let mut snap = Snapshot::of(other, false);
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
        "priority",
        "group_leader",
        "total_heap_size",
        "heap_size",
        "stack_size",
        "reductions",
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
    let ip = p.ip;
    crate::interp::build_stacktrace(p, ip.cast(), &e)
}

/// True if `item` is the atom `name` or a list holding it.
fn mentions(item: Term, name: &str) -> bool {
    let is = |t: Term| t.as_atom().is_some_and(|a| a.name() == name);
    is(item) || item.list_to_vec().is_some_and(|l| l.into_iter().any(is))
}

fn node0(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::atom(Atom::NONODE_NOHOST))
}

fn node1(_rt: &Runtime, _: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if a[0].is_pid() || a[0].is_port() || a[0].is_reference() {
        Ok(Term::atom(Atom::NONODE_NOHOST))
    } else {
        Err(Exception::badarg())
    }
}

fn nodes(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::NIL)
}

fn is_alive(_rt: &Runtime, _: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    Ok(Term::FALSE)
}

fn list_to_pid(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let chars = a[0].list_to_vec().ok_or_else(Exception::badarg)?;
    let text: String = chars
        .iter()
        .map(|c| c.as_small().and_then(|c| char::from_u32(c as u32)))
        .collect::<Option<_>>()
        .ok_or_else(Exception::badarg)?;
    let inner = text
        .strip_prefix('<')
        .and_then(|t| t.strip_suffix('>'))
        .ok_or_else(Exception::badarg)?;
    let parts: Vec<u64> = inner
        .split('.')
        .map(|n| n.parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| Exception::badarg())?;
    match parts[..] {
        [0, id, serial] => {
            let id = u32::try_from(id).map_err(|_| Exception::badarg())?;
            let serial = u32::try_from(serial).map_err(|_| Exception::badarg())?;
            let number = beamr_core::etf::local::local_pid_number(id, serial)
                .ok_or_else(Exception::badarg)?;
            let _ = p;
            Ok(Term::pid(number))
        }
        _ => Err(Exception::badarg()),
    }
}

fn pid_to_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_pid() {
        return Err(Exception::badarg());
    }
    let text = beamr_core::format::display_w(a[0]).to_string();
    Ok(p.heap.string(&text))
}

fn ref_to_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_reference() {
        return Err(Exception::badarg());
    }
    let text = beamr_core::format::display_w(a[0]).to_string();
    Ok(p.heap.string(&text))
}

fn port_to_list(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_port() {
        return Err(Exception::badarg());
    }
    let text = beamr_core::format::display_w(a[0]).to_string();
    Ok(p.heap.string(&text))
}

/// Milliseconds of `wall_clock` and `runtime` at the previous
/// `statistics/1` call (the "since last call" parts).
static LAST_WALL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static LAST_RUNTIME: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// CPU time of the OS process in milliseconds (user + system, from
/// `/proc/self/stat` at 100 ticks a second; 0 where unavailable).
fn cpu_millis() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // Fields after the command name (which ends with the last ')').
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let tick = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    // utime and stime are fields 14 and 15 of the line: 11 and 12 here.
    (tick(11) + tick(12)) * 10
}

/// `{Total, SinceLast}` with `last` updated.
fn total_and_delta(p: &mut Process, total: u64, last: &std::sync::atomic::AtomicU64) -> Term {
    let before = last.swap(total, std::sync::atomic::Ordering::Relaxed);
    let t = p.heap.int(total as i64);
    let d = p.heap.int(total.saturating_sub(before) as i64);
    p.heap.tuple(&[t, d])
}

/// `statistics(Item)` for the items OTP's library asks for; counters beamr
/// does not keep (garbage collection, I/O bytes, context switches) read 0.
fn statistics(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let item = a[0].as_atom().ok_or_else(Exception::badarg)?;
    let zero = Term::small_unchecked(0);
    Ok(match item.name() {
        "wall_clock" => {
            let ms = rt.started.elapsed().as_millis() as u64;
            total_and_delta(p, ms, &LAST_WALL)
        }
        "runtime" => total_and_delta(p, cpu_millis(), &LAST_RUNTIME),
        "reductions" | "exact_reductions" => {
            let total = p.heap.int(p.reductions as i64);
            p.heap.tuple(&[total, zero])
        }
        "run_queue" | "total_run_queue_lengths" | "total_active_tasks" => zero,
        "context_switches" => p.heap.tuple(&[zero, zero]),
        "garbage_collection" => p.heap.tuple(&[zero, zero, zero]),
        "io" => {
            let input = p
                .heap
                .tuple(&[Term::atom(Atom::new("input").expect("atom")), zero]);
            let output = p
                .heap
                .tuple(&[Term::atom(Atom::new("output").expect("atom")), zero]);
            p.heap.tuple(&[input, output])
        }
        _ => return Err(Exception::badarg()),
    })
}

/// `fun_info_mfa(Fun)`: `{M, F, Arity}` of a fun (for a local fun, the
/// function the compiler made of it), as eunit names tests.
fn fun_info_mfa(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let (m, f, arity) = if let Some(c) = a[0].as_closure() {
        (c.entry.module, c.entry.function, c.entry.arity)
    } else if let Some(e) = a[0].as_export() {
        (e.module, e.function, e.arity)
    } else {
        return Err(Exception::badarg());
    };
    Ok(p.heap.tuple(&[
        Term::atom(m),
        Term::atom(f),
        Term::small_unchecked(i64::from(arity)),
    ]))
}
