//! `erlang` BIFs that send signals: `send`/`!`, `link`, `unlink`,
//! `monitor`, `demonitor`, aliases, `exit/2`.

use crate::trace::probes;
use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::TraceTag;

use crate::loader::BifRow;
use crate::process::{Exception, Payload, Process, Signal};
use crate::runtime::{AliasMode, Runtime};
use crate::signals;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
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
];

fn send2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    signals::send(rt, p, a[0], a[1])?;
    Ok(a[1])
}

/// `send(Dest, Msg, Options)`: `noconnect` and `nosuspend` change nothing
/// on one node; the message is sent and `ok` returned.
fn send3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    // Walked in place (no vector): `gen:do_call` sends with
    // `[noconnect]` on every call.
    let mut opts = a[2].iter_list();
    if !opts.by_ref().all(|o| {
        o.as_atom()
            .is_some_and(|o| matches!(o.name(), "noconnect" | "nosuspend"))
    }) || !opts.tail().is_nil()
    {
        return Err(Exception::badarg());
    }
    send2(rt, p, &a[..2])?;
    Ok(Term::OK)
}

/// Puts a `noproc` answer about a process that is gone (`'DOWN'`, `'EXIT'`)
/// in `p`'s mailbox after the signals waiting in its inbox: a target that
/// sent `p` a message and then died must be seen in that order, as on the
/// BEAM, where the answer comes as a signal from the target.
fn noproc_to_self(rt: &Runtime, p: &mut Process, msg: Term) {
    signals::deliver_pending(rt, p);
    signals::deliver_to_self(rt, p, msg);
}

pub(super) fn link(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if let Some(remote) = a[0].as_external_pid() {
        crate::dist::outgoing::link(rt, p, remote);
        return Ok(Term::TRUE);
    }
    if !a[0].is_local_pid() && !a[0].is_local_port() {
        return Err(Exception::badarg());
    }
    if a[0] == p.pid || p.links.contains(&a[0]) {
        return Ok(Term::TRUE);
    }
    let linked = if a[0].is_local_port() {
        rt.port_link(a[0], p.pid)
    } else {
        rt.send_signal(a[0], Signal::Link { from: p.pid })
    };
    if linked {
        p.links.push(a[0]);
        probes::link(&mut p.trace, TraceTag::Link, p.pid, a[0]);
        if a[0].is_local_pid() && crate::code::otp_release() >= 27 {
            // set_on_link: the linked process takes the caller's flags
            // (OTP 27 and later; OTP 25's link/1 passes none on).
            for change in p.trace.inherit_on_link() {
                rt.send_signal(a[0], Signal::Trace(change));
            }
        }
    } else if p.trap_exit {
        // After what the target sent before it died (see noproc_to_self).
        let msg = p
            .heap
            .tuple(&[Term::atom(Atom::EXIT), a[0], Term::atom(Atom::NOPROC)]);
        noproc_to_self(rt, p, msg);
    } else {
        return Err(Exception::error(Term::atom(Atom::NOPROC)));
    }
    Ok(Term::TRUE)
}

fn unlink(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[0].is_pid() && !a[0].is_port() {
        return Err(Exception::badarg());
    }
    if p.links.contains(&a[0]) {
        p.links.retain(|&l| l != a[0]);
        probes::link(&mut p.trace, TraceTag::Unlink, p.pid, a[0]);
    }
    if a[0].is_local_port() {
        rt.port_unlink(a[0], p.pid);
        return Ok(Term::TRUE);
    }
    if let Some(remote) = a[0].as_external_pid() {
        crate::dist::outgoing::unlink(rt, p.pid, remote);
        return Ok(Term::TRUE);
    }
    rt.send_signal(a[0], Signal::Unlink { from: p.pid });
    Ok(Term::TRUE)
}

pub(super) fn monitor(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if a[0].as_atom().is_some_and(|t| t.name() == "port") {
        return monitor_port(rt, p, a[0], a[1]);
    }
    if a[0] != Term::atom(Atom::PROCESS) {
        return Err(Exception::badarg());
    }
    // A name, local or as {Name, Node} for this node; another node's
    // process or name is monitored through its connection.
    let this = Term::atom(crate::dist::node::name());
    let name = match a[1].as_tuple() {
        Some(&[name, node]) if node == this || node == Term::atom(Atom::NONODE_NOHOST) => {
            Some(name.as_atom().ok_or_else(Exception::badarg)?)
        }
        Some(&[name, node]) => {
            let (Some(name), Some(node)) = (name.as_atom(), node.as_atom()) else {
                return Err(Exception::badarg());
            };
            let target = crate::dist::table::Watched::Name(name);
            return Ok(crate::dist::outgoing::monitor(rt, p, node, target));
        }
        Some(_) => return Err(Exception::badarg()),
        None => a[1].as_atom(),
    };
    if let Some(remote) = a[1].as_external_pid() {
        let target = crate::dist::table::Watched::Pid(remote);
        return Ok(crate::dist::outgoing::monitor(rt, p, remote.node, target));
    }
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
                ids,
                name,
            },
        )
    });
    match (delivered, target) {
        (true, Some(pid)) => {
            p.monitors.push((ids, pid, name));
            probes::monitor(&p.trace, p.pid, pid, reference);
        }
        _ => {
            // No such process: 'DOWN' with noproc at once; a name is
            // reported as {Name, Node}.
            let object = match name {
                Some(name) => p.heap.tuple(&[Term::atom(name), this]),
                None => a[1],
            };
            let msg = p.heap.tuple(&[
                Term::atom(Atom::DOWN),
                reference,
                a[0],
                object,
                Term::atom(Atom::NOPROC),
            ]);
            noproc_to_self(rt, p, msg);
        }
    }
    Ok(reference)
}

/// `monitor(port, Port)`: a `'DOWN'` when the port exits, or at once with
/// `noproc` when it has (after the messages it sent).
fn monitor_port(rt: &Runtime, p: &mut Process, kind: Term, port: Term) -> Result<Term, Exception> {
    if !port.is_local_port() {
        return Err(Exception::badarg());
    }
    let ids = rt.new_ref_ids();
    let reference = p.heap.local_ref(ids);
    if rt.port_monitor(port, ids, p.pid) {
        p.monitors.push((ids, port, None));
    } else {
        let msg = p.heap.tuple(&[
            Term::atom(Atom::DOWN),
            reference,
            kind,
            port,
            Term::atom(Atom::NOPROC),
        ]);
        // After what the port sent before it exited: a port whose
        // program ended before the monitor was set has its data in the
        // inbox, and its owner must see that data first.
        noproc_to_self(rt, p, msg);
    }
    Ok(reference)
}

/// `{alias, Mode}` and `{tag, Tag}` (not supported: badarg) options.
fn monitor3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut opts = a[2].iter_list();
    let mut mode = None;
    for opt in opts.by_ref() {
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
    if !opts.tail().is_nil() {
        return Err(Exception::badarg());
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
        if target.is_local_port() {
            rt.port_demonitor(target, ids);
            return Ok(Term::TRUE);
        }
        if let Some(node) = target.as_atom() {
            // A monitor across nodes keeps its node as its target.
            crate::dist::outgoing::demonitor(rt, p.pid, node, ids);
            return Ok(Term::TRUE);
        }
        rt.send_signal(target, Signal::Demonitor { from: p.pid, ids });
    }
    Ok(Term::TRUE)
}

fn demonitor2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ids = ref_ids(a[0])?;
    let existed = p.monitors.iter().any(|(m, _, _)| *m == ids);
    demonitor1(rt, p, &a[..1])?;
    let (mut flush, mut info) = (false, false);
    let mut opts = a[1].iter_list();
    for o in opts.by_ref() {
        match o.as_atom().map(Atom::name) {
            Some("flush") => flush = true,
            Some("info") => info = true,
            _ => {}
        }
    }
    if !opts.tail().is_nil() {
        return Err(Exception::badarg());
    }
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
    } else if a[0].is_local_port() {
        port_exit_signal(rt, p.pid, a[0], a[1]);
        return Ok(Term::TRUE);
    } else if a[0].is_pid() {
        // Another node's: through its connection.
        a[0]
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
            token: Term::NIL,
        },
    );
    Ok(Term::TRUE)
}

/// `exit(Port, Reason)`: the port exits with Reason, `normal` included,
/// as in erts (`kill` makes it `killed`), sent by `from`.
fn port_exit_signal(rt: &Runtime, from: Term, port: Term, sent: Term) {
    let reason = if sent == Term::atom(Atom::KILL) {
        Term::atom(Atom::KILLED)
    } else {
        sent
    };
    let end = crate::signals::PortEnd::Signal { from, sent };
    rt.port_exit_by(port, reason, None, end);
}

/// `exit(self(), Reason)`: takes effect before the BIF returns, as the
/// signal to itself does on the BEAM. A trapping process gets the
/// `'EXIT'` message (unless the reason is `kill`); any other ends now with
/// the reason (`killed` for `kill`, `normal` included): the exception
/// raised here cannot be caught, since the process has a pending exit
/// (see `interp::unwind`), so no `catch` or `try` (proc_lib's, a
/// supervisor's) runs code for a process that is already dead.
fn exit_self(p: &mut Process, rt: &Runtime, reason: Term) -> Result<Term, Exception> {
    let kill = reason == Term::atom(Atom::KILL);
    if p.trap_exit && !kill {
        let msg = p.heap.tuple(&[Term::atom(Atom::EXIT), p.pid, reason]);
        signals::deliver_to_self(rt, p, msg);
        return Ok(Term::TRUE);
    }
    let reason = if kill {
        Term::atom(Atom::KILLED)
    } else {
        reason
    };
    p.pending_exit = Some(reason);
    Err(Exception::exit(reason))
}
