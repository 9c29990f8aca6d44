//! Spawning across nodes: `SPAWN_REQUEST` from a peer runs here (what
//! `erpc:call/4` to this node does), and `spawn_request/5` for another
//! node (what `erpc:call/4` from this node does) waits for its
//! `SPAWN_REPLY`.
//!
//! A request's options may ask for a link and a monitor between the
//! requester and the child. The child is spawned held (not yet runnable),
//! the link and monitor recorded, the reply sent, and only then does the
//! child run: even a child that ends at once is seen to end, with its
//! reason (which `erpc` carries its result in).

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use super::connection::send_frame;
use super::table::{pid_term, table, PendingSpawn, Watched, WatchedBy, Watching};
use super::wire::{frame, op, BadFrame};
use crate::process::{Payload, Process, Signal};
use crate::runtime::Runtime;
use crate::sched::{SpawnOptions, SpawnTarget};

/// `SPAWN_REPLY` flags: the link was set up.
const LINKED: i64 = 1;
/// `SPAWN_REPLY` flags: the monitor was set up.
const MONITORED: i64 = 2;

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).unwrap_or(Atom::UNDEFINED))
}

/// `{29, ReqId, From, GroupLeader, {M, F, A}, OptList}` + ArgList: spawns
/// `M:F(Args)` with the requester's group leader and answers
/// `SPAWN_REPLY` with the pid, or with `badopt` for options beamr does not
/// take (only `link` and `monitor` are).
pub fn requested(rt: &Runtime, node: Atom, c: &[Term], args: Term) -> Result<(), BadFrame> {
    let (req, from, gl, mfa, opts) = (c[1], c[2], c[3], c[4], c[5]);
    let requester = from
        .as_external_pid()
        .filter(|p| p.node == node)
        .ok_or_else(|| BadFrame("a spawn request from a pid of another node".into()))?;
    let reference = req
        .as_ref()
        .ok_or_else(|| BadFrame("a spawn request whose id is not a reference".into()))?;
    let (m, f) = match mfa.as_tuple() {
        Some(&[m, f, _]) => match (m.as_atom(), f.as_atom()) {
            (Some(m), Some(f)) => (m, f),
            _ => {
                return Err(BadFrame(
                    "a spawn request whose {M, F, A} is not atoms".into(),
                ))
            }
        },
        _ => return Err(BadFrame("a spawn request without {M, F, A}".into())),
    };
    let args = args
        .list_to_vec()
        .ok_or_else(|| BadFrame("a spawn request whose arguments are not a list".into()))?;
    let (mut link, mut monitor, mut bad) = (false, false, false);
    for o in opts.list_to_vec().unwrap_or_default() {
        match o.as_atom().map(Atom::name) {
            Some("link") => link = true,
            Some("monitor") => monitor = true,
            _ => bad = true,
        }
    }
    let reply = |h: &mut Heap, flags: i64, result: Term| {
        h.tuple(&[small(op::SPAWN_REPLY), req, from, small(flags), result])
    };
    if bad {
        let mut h = Heap::new();
        let ctl = reply(&mut h, 0, atom("badopt"));
        if let Some(f) = frame(ctl, None) {
            send_frame(rt, node, f, false);
        }
        return Ok(());
    }
    let options = SpawnOptions {
        group_leader: gl.is_pid().then_some(gl),
        held: true,
        ..SpawnOptions::default()
    };
    let pid = match rt.spawn(None, SpawnTarget::Mfa(m, f), &args, options) {
        Ok((pid, _)) => pid,
        Err(_) => {
            let mut h = Heap::new();
            let ctl = reply(&mut h, 0, atom("system_limit"));
            if let Some(f) = frame(ctl, None) {
                send_frame(rt, node, f, false);
            }
            return Ok(());
        }
    };
    {
        let mut t = table();
        let e = t.entry(node);
        if link {
            e.links.push((pid, requester));
        }
        if monitor {
            e.watched_by.push(WatchedBy {
                local: pid,
                name: None,
                watcher: requester,
                reference,
            });
        }
    }
    let flags = if link { LINKED } else { 0 } | if monitor { MONITORED } else { 0 };
    let mut h = Heap::new();
    let ctl = reply(&mut h, flags, pid);
    if let Some(f) = frame(ctl, None) {
        send_frame(rt, node, f, false);
    }
    rt.release_held(pid);
    Ok(())
}

fn small(n: i64) -> Term {
    Term::small_unchecked(n)
}

/// `{31, ReqId, To, Flags, Result}`: the answer to a `spawn_request/5`
/// of ours; the requester is told as its options asked, and the link
/// and monitor it asked for start.
pub fn replied(rt: &Runtime, node: Atom, c: &[Term]) -> Result<(), BadFrame> {
    let (req, to, flags, result) = (c[1], c[2], c[3], c[4]);
    let ids = req
        .as_ref()
        .filter(|r| r.node == Atom::NONODE_NOHOST)
        .map(|r| [r.ids[0], r.ids[1], r.ids[2]])
        .ok_or_else(|| BadFrame("a spawn reply whose id is not this node's reference".into()))?;
    let flags = flags
        .as_small()
        .ok_or_else(|| BadFrame("a spawn reply whose flags are not an integer".into()))?;
    let child = result.as_external_pid().filter(|p| p.node == node);
    let pending = {
        let mut t = table();
        let e = t.entry(node);
        let Some(i) = e.spawns.iter().position(|s| s.ids == ids && s.local == to) else {
            return Ok(());
        };
        let s = e.spawns.swap_remove(i);
        if let Some(child) = child {
            if s.link && flags & LINKED != 0 {
                e.links.push((s.local, child));
            }
            if s.monitor && flags & MONITORED != 0 {
                e.watching.push(Watching {
                    local: s.local,
                    ids,
                    target: Watched::Pid(child),
                });
            }
        }
        s
    };
    let ok = child.is_some();
    if (ok && pending.on_success) || (!ok && pending.on_error) {
        let message = Payload::build(|h| {
            let tag = h.copy_term(pending.tag.term);
            let r = h.local_ref(ids);
            let (status, value) = match child {
                Some(c) => (Term::OK, pid_term(h, c)),
                None => (Term::atom(Atom::ERROR), h.copy_term(result)),
            };
            h.tuple(&[tag, r, status, value])
        });
        rt.send_signal(pending.local, Signal::Message(message, None));
    }
    Ok(())
}

/// What `spawn_request/5` asks of another node.
pub struct Request {
    /// The module and function.
    pub m: Atom,
    /// The function.
    pub f: Atom,
    /// The arguments (a list on the caller's heap).
    pub args: Term,
    /// Link to the child.
    pub link: bool,
    /// Monitor the child (the request id is the monitor's reference).
    pub monitor: bool,
    /// The reply's tag.
    pub tag: Term,
    /// Reply on success.
    pub on_success: bool,
    /// Reply on failure.
    pub on_error: bool,
}

/// Sends a spawn request to `node` for `p`: the request id, or `None`
/// when the node cannot be reached (the caller fails the request with
/// `noconnection`).
pub fn request(rt: &Runtime, p: &mut Process, node: Atom, r: Request) -> Option<Term> {
    if !super::node::is_alive() {
        return None;
    }
    let ids = rt.new_ref_ids();
    let arity = r.args.list_to_vec().map_or(0, |a| a.len());
    table().entry(node).spawns.push(PendingSpawn {
        local: p.pid,
        ids,
        monitor: r.monitor,
        link: r.link,
        tag: Payload::copy(r.tag),
        on_success: r.on_success,
        on_error: r.on_error,
    });
    let mut h = Heap::new();
    let req = h.local_ref(ids);
    let mfa = h.tuple(&[Term::atom(r.m), Term::atom(r.f), small(arity as i64)]);
    let mut opts = Vec::new();
    if r.link {
        opts.push(Term::atom(Atom::new("link").unwrap_or(Atom::UNDEFINED)));
    }
    if r.monitor {
        opts.push(atom("monitor"));
    }
    let opts = h.list(&opts);
    let gl = if p.group_leader.is_pid() {
        p.group_leader
    } else {
        p.pid
    };
    let ctl = h.tuple(&[small(op::SPAWN_REQUEST), req, p.pid, gl, mfa, opts]);
    let sent = frame(ctl, Some(r.args)).is_some_and(|f| send_frame(rt, node, f, true));
    if !sent {
        if let Some(e) = table().nodes.get_mut(&node) {
            e.spawns.retain(|s| s.ids != ids);
        }
        return None;
    }
    if r.monitor {
        p.monitors.push((ids, Term::atom(node), None));
    }
    Some(p.heap.local_ref(ids))
}
