//! What local processes send to other nodes: the hooks `signals::remote`
//! calls (a message, a signal, a process's end), and the links and
//! monitors the `erlang` BIFs make across nodes. Each becomes a control
//! message (`wire::op`) sent through the node's connection, made if
//! there is none (`connection::send_frame`).

use std::sync::atomic::{AtomicU64, Ordering};

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::{ExternalPidView, Term};

use super::connection::{gone_or_noconnection, send_frame, with_entry};
use super::table::{any, pid_term, ref_term, table, Watched, Watching};
use super::wire::{frame, op};
use crate::process::{Payload, Process, Signal};
use crate::runtime::Runtime;
use crate::signals::remote::RemoteHooks;

/// The hooks to install in `signals::remote`.
pub const HOOKS: RemoteHooks = RemoteHooks {
    signal,
    send,
    exited,
};

fn small(n: i64) -> Term {
    Term::small_unchecked(n)
}

/// Builds the control tuple on a scratch heap and sends the frame.
fn send_control(
    rt: &Runtime,
    node: Atom,
    connect: bool,
    build: impl FnOnce(&mut Heap) -> (Term, Option<Term>),
) -> bool {
    let mut h = Heap::new();
    let (control, payload) = build(&mut h);
    match frame(control, payload) {
        Some(f) => send_frame(rt, node, f, connect),
        None => false,
    }
}

/// A signal to `to`, another node's pid.
fn signal(rt: &Runtime, to: Term, sig: Signal) {
    let Some(view) = to.as_external_pid() else {
        return;
    };
    let node = view.node;
    match sig {
        Signal::Message(message, _) => {
            send_control(rt, node, true, |h| {
                let to = pid_term(h, view);
                (
                    h.tuple(&[small(op::SEND), Term::atom(Atom::UNDEFINED), to]),
                    Some(message.term),
                )
            });
        }
        Signal::Sent { message, from, .. } => {
            send_control(rt, node, true, |h| {
                let to = pid_term(h, view);
                let control = if from.is_local_pid() {
                    h.tuple(&[small(op::SEND_SENDER), from, to])
                } else {
                    h.tuple(&[small(op::SEND), Term::atom(Atom::UNDEFINED), to])
                };
                (control, Some(message.term))
            });
        }
        Signal::SeqMessage {
            message,
            from,
            token,
            ..
        } => {
            send_control(rt, node, true, |h| {
                let to = pid_term(h, view);
                let control = match (from.is_local_pid(), token.is_tuple()) {
                    (true, true) => h.tuple(&[small(op::SEND_SENDER_TT), from, to, token]),
                    (true, false) => h.tuple(&[small(op::SEND_SENDER), from, to]),
                    (false, true) => {
                        h.tuple(&[small(op::SEND_TT), Term::atom(Atom::UNDEFINED), to, token])
                    }
                    (false, false) => h.tuple(&[small(op::SEND), Term::atom(Atom::UNDEFINED), to]),
                };
                (control, Some(message.term))
            });
        }
        Signal::Exit { from, reason, .. } if from.is_local_pid() => {
            send_control(rt, node, true, |h| {
                let to = pid_term(h, view);
                (
                    h.tuple(&[small(op::PAYLOAD_EXIT2), from, to]),
                    Some(reason.term),
                )
            });
        }
        Signal::Link { from } if from.is_local_pid() => {
            link_remote(rt, from, view);
        }
        Signal::Unlink { from } if from.is_local_pid() => unlink(rt, from, view),
        _ => {}
    }
}

/// A message from `from` to `dest`: another node's pid, `{Name, Node}` or
/// an alias of another node; with `token` (a `seq_trace` token, or `[]`),
/// the control message is the `_TT` one that carries it, as erts sends it.
fn send(rt: &Runtime, from: Term, dest: Term, msg: Term, token: Term) {
    let traced = token.is_tuple();
    if let Some(view) = dest.as_external_pid() {
        send_control(rt, view.node, true, |h| {
            let control = if traced {
                h.tuple(&[small(op::SEND_SENDER_TT), from, dest, token])
            } else {
                h.tuple(&[small(op::SEND_SENDER), from, dest])
            };
            (control, Some(msg))
        });
    } else if let Some(&[name, node]) = dest.as_tuple().and_then(|t| <&[Term; 2]>::try_from(t).ok())
    {
        let (Some(_), Some(node)) = (name.as_atom(), node.as_atom()) else {
            return;
        };
        send_control(rt, node, true, |h| {
            let unused = Term::atom(Atom::UNDEFINED);
            let control = if traced {
                h.tuple(&[small(op::REG_SEND_TT), from, unused, name, token])
            } else {
                h.tuple(&[small(op::REG_SEND), from, unused, name])
            };
            (control, Some(msg))
        });
    } else if let Some(r) = dest.as_ref() {
        send_control(rt, r.node, true, |h| {
            let control = if traced {
                h.tuple(&[small(op::ALIAS_SEND_TT), from, dest, token])
            } else {
                h.tuple(&[small(op::ALIAS_SEND), from, dest])
            };
            (control, Some(msg))
        });
    }
}

/// `pid` ended with `reason`: its links and monitors on other nodes hear
/// of it.
fn exited(rt: &Runtime, pid: Term, reason: Term) {
    if !any() {
        return;
    }
    super::nodes_monitor::process_exited(pid);
    let mut out = Vec::new();
    {
        let mut t = table();
        for (&node, e) in t.nodes.iter_mut() {
            e.links.retain(|&(local, remote)| {
                if local != pid {
                    return true;
                }
                let mut h = Heap::new();
                let to = pid_term(&mut h, remote);
                let control = h.tuple(&[small(op::PAYLOAD_EXIT), pid, to]);
                out.push((node, frame(control, Some(reason))));
                false
            });
            e.watched_by.retain(|w| {
                if w.local != pid {
                    return true;
                }
                let mut h = Heap::new();
                let to = pid_term(&mut h, w.watcher);
                let r = ref_term(&mut h, w.reference);
                let object = w.name.map_or(pid, Term::atom);
                let control = h.tuple(&[small(op::PAYLOAD_MONITOR_P_EXIT), object, to, r]);
                out.push((node, frame(control, Some(reason))));
                false
            });
            e.watching.retain(|w| w.local != pid);
            e.node_monitors.retain(|&p| p != pid);
        }
    }
    for (node, f) in out {
        if let Some(f) = f {
            send_frame(rt, node, f, false);
        }
    }
}

/// `link(Pid)` for another node's pid: the link is kept here and `LINK`
/// sent; `noconnection` comes back at once if the node cannot be reached.
pub fn link(rt: &Runtime, p: &mut Process, to: ExternalPidView) {
    link_remote(rt, p.pid, to);
}

fn link_remote(rt: &Runtime, from: Term, to: ExternalPidView) {
    let node = to.node;
    if !super::node::is_alive() {
        gone_or_noconnection(rt, from, to);
        return;
    }
    let new = with_entry(node, |e| {
        if e.links.iter().any(|&(l, r)| l == from && r == to) {
            false
        } else {
            e.links.push((from, to));
            true
        }
    });
    if new {
        let sent = send_control(rt, node, true, |h| {
            let t = pid_term(h, to);
            (h.tuple(&[small(op::LINK), from, t]), None)
        });
        if !sent && forget_link(node, from, to) {
            gone_or_noconnection(rt, from, to);
        }
    }
}

/// Removes the link `from`-`to` from `node`'s entry; false if it was not
/// there (the connection's end told `from` already).
fn forget_link(node: Atom, from: Term, to: ExternalPidView) -> bool {
    let mut t = table();
    let Some(e) = t.nodes.get_mut(&node) else {
        return false;
    };
    let before = e.links.len();
    e.links.retain(|&(l, r)| !(l == from && r == to));
    before != e.links.len()
}

/// The ids of `UNLINK_ID` messages.
static UNLINK_IDS: AtomicU64 = AtomicU64::new(1);

/// `unlink(Pid)` for another node's pid.
pub fn unlink(rt: &Runtime, from: Term, to: ExternalPidView) {
    let had = {
        let mut t = table();
        match t.nodes.get_mut(&to.node) {
            Some(e) => {
                let before = e.links.len();
                e.links.retain(|&(l, r)| !(l == from && r == to));
                before != e.links.len()
            }
            None => false,
        }
    };
    if had {
        let id = UNLINK_IDS.fetch_add(1, Ordering::Relaxed);
        send_control(rt, to.node, false, |h| {
            let t = pid_term(h, to);
            let id = h.int(id as i64);
            (h.tuple(&[small(op::UNLINK_ID), id, from, t]), None)
        });
    }
}

/// `monitor(process, Target)` for another node's pid or `{Name, Node}`:
/// the reference, with `'DOWN'` (`noconnection`) at once if the node
/// cannot be reached.
pub fn monitor(rt: &Runtime, p: &mut Process, node: Atom, target: Watched) -> Term {
    let ids = rt.new_ref_ids();
    let reference = p.heap.local_ref(ids);
    let name = match target {
        Watched::Name(n) => Some(n),
        Watched::Pid(_) => None,
    };
    p.monitors.push((ids, Term::atom(node), name));
    let watching = Watching {
        local: p.pid,
        ids,
        target,
    };
    let sent = super::node::is_alive() && {
        with_entry(node, |e| e.watching.push(watching));
        let pid = p.pid;
        send_control(rt, node, true, |h| {
            let r = h.local_ref(ids);
            let t = match target {
                Watched::Pid(v) => pid_term(h, v),
                Watched::Name(n) => Term::atom(n),
            };
            (h.tuple(&[small(op::MONITOR_P), pid, t, r]), None)
        })
    };
    if !sent {
        if let Some(e) = table().nodes.get_mut(&node) {
            e.watching.retain(|w| w.ids != ids);
        }
        let message = Payload::build(|h| {
            let r = h.local_ref(ids);
            let object = match target {
                Watched::Pid(v) => pid_term(h, v),
                Watched::Name(n) => h.tuple(&[Term::atom(n), Term::atom(node)]),
            };
            let noconnection = Term::atom(Atom::new("noconnection").unwrap_or(Atom::UNDEFINED));
            h.tuple(&[
                Term::atom(Atom::DOWN),
                r,
                Term::atom(Atom::PROCESS),
                object,
                noconnection,
            ])
        });
        rt.send_signal(p.pid, Signal::Down { ids, message });
    }
    reference
}

/// `demonitor(Ref)` of a monitor on `node`.
pub fn demonitor(rt: &Runtime, from: Term, node: Atom, ids: [u32; 3]) {
    let found = {
        let mut t = table();
        t.nodes.get_mut(&node).and_then(|e| {
            let i = e
                .watching
                .iter()
                .position(|w| w.local == from && w.ids == ids)?;
            Some(e.watching.swap_remove(i))
        })
    };
    if let Some(w) = found {
        send_control(rt, node, false, |h| {
            let r = h.local_ref(ids);
            let t = match w.target {
                Watched::Pid(v) => pid_term(h, v),
                Watched::Name(n) => Term::atom(n),
            };
            (h.tuple(&[small(op::DEMONITOR_P), from, t, r]), None)
        });
    }
}

/// `monitor_node(Node, true)`: `{nodedown, Node}` when the connection
/// ends, at once if it cannot be made.
pub fn monitor_node(rt: &Runtime, pid: Term, node: Atom) {
    if !super::node::is_alive() {
        nodedown_now(rt, pid, node);
        return;
    }
    let known = with_entry(node, |e| {
        e.node_monitors.push(pid);
        e.up.is_some() || !e.queue.is_empty()
    });
    if !known && !super::connection::connect_node(rt, node) {
        with_entry(node, |e| e.node_monitors.retain(|&p| p != pid));
        nodedown_now(rt, pid, node);
    }
}

/// `monitor_node(Node, false)`: one of the caller's node monitors ends.
pub fn demonitor_node(pid: Term, node: Atom) {
    let mut t = table();
    if let Some(e) = t.nodes.get_mut(&node) {
        if let Some(i) = e.node_monitors.iter().position(|&p| p == pid) {
            e.node_monitors.remove(i);
        }
    }
}

fn nodedown_now(rt: &Runtime, pid: Term, node: Atom) {
    let msg = Payload::build(|h| {
        let tag = Term::atom(Atom::new("nodedown").unwrap_or(Atom::UNDEFINED));
        h.tuple(&[tag, Term::atom(node)])
    });
    rt.send_signal(pid, Signal::Message(msg, None));
}
