//! A connection's life: made pending when something is sent to a node
//! not connected (`{auto_connect, Node, ConnId}` to `net_kernel`) or when
//! `net_kernel` accepts one (`erts_internal:new_connection/1`); up when
//! `dist_util` hands its socket over (`erlang:setnode/3`); gone when the
//! socket closes or the setup fails (`abort_pending_connection/2`), when
//! every link and monitor through it hears `noconnection` and every
//! `monitor_node/2` caller `{nodedown, Node}`.

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use super::table::{pid_term, table, Entry, Up, Watched};
use crate::ports::inet::dist_channel::DistSink;
use crate::ports::inet::InetPort;
use crate::process::{Payload, Signal};
use crate::runtime::Runtime;

fn atom(name: &str) -> Term {
    match Atom::new(name) {
        Ok(a) => Term::atom(a),
        Err(_) => Term::atom(Atom::UNDEFINED),
    }
}

/// The connection id term `net_kernel` keeps: `{Id, Node}`.
pub fn conn_id_term(heap: &mut Heap, node: Atom, id: u32) -> Term {
    heap.tuple(&[Term::small_unchecked(i64::from(id)), Term::atom(node)])
}

/// `erts_internal:new_connection(Node)`: the id of `node`'s connection,
/// a new pending one if there is none.
pub fn new_connection(node: Atom) -> u32 {
    let mut t = table();
    let e = t.entry(node);
    e.requested = true;
    e.conn_id
}

/// Why `setnode/3` refused a controller.
#[derive(Debug)]
pub enum SetupError {
    /// Not an inet socket port of this node, or not connected.
    NotASocket,
    /// The node is this node, or not alive.
    BadNode,
}

/// `erlang:setnode(Node, Port, {Flags, Creation})` from `owner` (the
/// connection's setup process): the socket becomes `node`'s channel, the
/// frames queued for it go out, and `net_kernel` is told of its
/// controller. Returns the connection id.
pub fn setnode(
    rt: &Runtime,
    owner: Term,
    node: Atom,
    port: Term,
    flags: u64,
    creation: u32,
) -> Result<u32, SetupError> {
    if !super::node::is_alive() || node == super::node::name() {
        return Err(SetupError::BadNode);
    }
    let channel = inet_port(rt, port).ok_or(SetupError::NotASocket)?;
    let conn_id = {
        let mut t = table();
        let entry = t.entry(node);
        let queued = std::mem::take(&mut entry.queue);
        for frame in &queued {
            // A failed write shows as the socket closing, which ends the
            // connection.
            let _ = channel.send_dist(frame);
        }
        entry.up = Some(Up {
            port,
            channel: channel.clone(),
            flags,
            creation,
        });
        entry.conn_id
    };
    channel.attach_dist(Arc::new(Channel { node, conn_id }));
    let visible = super::flags::is_visible(flags);
    super::nodes_monitor::notify(
        rt,
        super::nodes_monitor::Event::Up,
        node,
        Some(conn_id),
        visible,
    );
    // {dist_ctrlr, Ctrlr, Node, SetupPid}: net_kernel links to the
    // controller, whose exit is the node going down.
    if let Some(kernel) = rt.names.whereis(known("net_kernel")) {
        let msg = Payload::build(|h| h.tuple(&[atom("dist_ctrlr"), port, Term::atom(node), owner]));
        rt.send_signal(
            kernel,
            Signal::Sent {
                message: msg,
                from: owner,
                carried: None,
            },
        );
    }
    Ok(conn_id)
}

fn known(name: &str) -> Atom {
    Atom::new(name).unwrap_or(Atom::UNDEFINED)
}

/// The inet socket behind local port `port`.
fn inet_port(rt: &Runtime, port: Term) -> Option<Arc<InetPort>> {
    if !port.is_local_port() {
        return None;
    }
    let port = rt.ports.get(port)?;
    let driver = port.driver.clone()?;
    driver.as_any()?.downcast_ref::<InetPort>()?.arc()
}

/// `erts_internal:abort_pending_connection(Node, ConnId)`: true when it
/// was that node's pending connection, which then ends.
pub fn abort_pending(rt: &Runtime, node: Atom, conn_id: u32) -> bool {
    let pending = {
        let t = table();
        t.nodes
            .get(&node)
            .is_some_and(|e| e.conn_id == conn_id && e.up.is_none())
    };
    if pending {
        gone(rt, node, Some(conn_id));
    }
    pending
}

/// Sends `frame` to `node`: at once when connected, queued while the
/// connection is pending, and with `connect` a new connection asked of
/// `net_kernel` if none is. False when it cannot go (this node is not
/// alive, no `net_kernel` runs, or `connect` is false and no connection
/// is there).
pub fn send_frame(rt: &Runtime, node: Atom, frame: Vec<u8>, connect: bool) -> bool {
    if !super::node::is_alive() || node == super::node::name() {
        return false;
    }
    let channel = {
        let mut t = table();
        match t.nodes.get_mut(&node) {
            Some(Entry { up: Some(up), .. }) => up.channel.clone(),
            Some(e) if e.requested => {
                e.queue.push(frame);
                return true;
            }
            _ if !connect => return false,
            _ => {
                t.entry(node).queue.push(frame);
                drop(t);
                return connect_node(rt, node);
            }
        }
    };
    let _ = channel.send_dist(&frame);
    true
}

/// Asks `net_kernel` for a connection to `node` (`{auto_connect, Node,
/// ConnId}`) unless one is asked for or up; false (the pending entry and
/// what waits in it gone, with `noconnection`) when no `net_kernel` runs.
pub fn connect_node(rt: &Runtime, node: Atom) -> bool {
    let conn_id = {
        let mut t = table();
        let e = t.entry(node);
        if e.requested || e.up.is_some() {
            return true;
        }
        e.requested = true;
        e.conn_id
    };
    let Some(kernel) = rt.names.whereis(known("net_kernel")) else {
        gone(rt, node, Some(conn_id));
        return false;
    };
    let msg = Payload::build(|h| {
        let id = conn_id_term(h, node, conn_id);
        h.tuple(&[atom("auto_connect"), Term::atom(node), id])
    });
    rt.send_signal(kernel, Signal::Message(msg, None));
    true
}

/// An exit signal `noconnection` from `remote` to `local`, for a link to
/// a node that cannot be reached.
pub fn gone_or_noconnection(rt: &Runtime, local: Term, remote: beamr_core::term::ExternalPidView) {
    let pair = Payload::build(|h| {
        let from = pid_term(h, remote);
        h.tuple(&[from, atom("noconnection")])
    });
    deliver_exit(rt, local, pair);
}

/// Ensures an entry for `node` exists (for a link or monitor made before
/// anything was sent), returning false if the node cannot be reached.
pub fn with_entry<R>(node: Atom, f: impl FnOnce(&mut Entry) -> R) -> R {
    let mut t = table();
    f(t.entry(node))
}

/// `node`'s connection ended (`conn_id`: only if it is still that one):
/// the entry goes, and what watched through it hears `noconnection`.
pub fn gone(rt: &Runtime, node: Atom, conn_id: Option<u32>) {
    gone_because(rt, node, conn_id, "connection_closed");
}

/// [`gone`], with the `nodedown_reason` the nodes monitors are told
/// (`connection_closed`, `disconnect`, ...).
pub fn gone_because(rt: &Runtime, node: Atom, conn_id: Option<u32>, reason: &str) {
    let entry = {
        let mut t = table();
        match t.nodes.get(&node) {
            Some(e) if conn_id.is_none_or(|id| id == e.conn_id) => t.nodes.remove(&node),
            _ => None,
        }
    };
    let Some(entry) = entry else { return };
    if let Some(up) = &entry.up {
        // Only a connection that was up had a nodeup.
        let visible = super::flags::is_visible(up.flags);
        let reason = super::nodes_monitor::Event::Down(known(reason));
        super::nodes_monitor::notify(rt, reason, node, Some(entry.conn_id), visible);
    }
    let noconnection = atom("noconnection");
    for (local, remote) in entry.links {
        let reason = Payload::build(|h| {
            let from = pid_term(h, remote);
            h.tuple(&[from, noconnection])
        });
        deliver_exit(rt, local, reason);
    }
    for w in entry.watching {
        let message = Payload::build(|h| {
            let r = h.local_ref(w.ids);
            let object = match w.target {
                Watched::Pid(p) => pid_term(h, p),
                Watched::Name(name) => h.tuple(&[Term::atom(name), Term::atom(node)]),
            };
            h.tuple(&[
                Term::atom(Atom::DOWN),
                r,
                Term::atom(Atom::PROCESS),
                object,
                noconnection,
            ])
        });
        rt.send_signal(
            w.local,
            Signal::Down {
                ids: w.ids,
                message,
            },
        );
    }
    for s in entry.spawns {
        if s.on_error {
            let reply = Payload::build(|h| {
                let tag = h.copy_term(s.tag.term);
                let r = h.local_ref(s.ids);
                h.tuple(&[tag, r, Term::atom(Atom::ERROR), noconnection])
            });
            rt.send_signal(s.local, Signal::Message(reply, None));
        }
    }
    for pid in entry.node_monitors {
        let msg = Payload::build(|h| h.tuple(&[atom("nodedown"), Term::atom(node)]));
        rt.send_signal(pid, Signal::Message(msg, None));
    }
}

/// Delivers the exit signal of a broken link from a remote process to
/// `local`: `pair` is `{From, Reason}` on a heap of its own, which the
/// receiver absorbs, so the remote pid stays valid in its `'EXIT'`
/// message.
pub fn deliver_exit(rt: &Runtime, local: Term, pair: Payload) {
    deliver_exit_signal(rt, local, pair, true, Term::NIL);
}

/// `pair` (`{From, Reason}`) as an exit signal to `local`: a link that
/// broke when `linked` (a reason `kill` is then a reason like any other,
/// as erts delivers it), else `exit/2`'s; with the `seq_trace` token it
/// carried (`[]` for none, on `pair`'s heap).
pub fn deliver_exit_signal(rt: &Runtime, local: Term, pair: Payload, linked: bool, token: Term) {
    let Some(&[from, reason]) = pair
        .term
        .as_tuple()
        .and_then(|t| <&[Term; 2]>::try_from(t).ok())
    else {
        return;
    };
    rt.send_signal(
        local,
        Signal::Exit {
            from,
            reason: Payload {
                term: reason,
                heap: pair.heap,
            },
            linked,
            token,
        },
    );
}

/// The sink of one connection's socket.
struct Channel {
    node: Atom,
    conn_id: u32,
}

impl DistSink for Channel {
    fn packet(&self, rt: &Runtime, bytes: &[u8]) {
        if bytes.is_empty() {
            return; // a tick
        }
        if let Err(why) = super::incoming::handle(rt, self.node, bytes) {
            rt.log_emulator_text(
                Term::atom(self.node),
                None,
                &format!(
                    "** Distribution connection to {} closed: a malformed frame: {} **",
                    self.node.name(),
                    why.0
                ),
            );
            let port = table()
                .nodes
                .get(&self.node)
                .and_then(|e| e.up.as_ref().map(|u| u.port));
            if let Some(port) = port {
                rt.port_exit(port, atom("connection_closed"), None);
            }
        }
    }

    fn closed(&self, rt: &Runtime, reason: &str) {
        gone_because(rt, self.node, Some(self.conn_id), reason);
    }
}
