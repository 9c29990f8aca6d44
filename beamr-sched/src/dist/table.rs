//! The distribution entries: one per node this node is connecting or
//! connected to, with what must hear of the connection's end.
//!
//! One mutex guards the table. Its holders only move entries and clone a
//! channel; frames are written after it is released, except the queue of
//! a pending connection, which `setnode/3` writes out under the lock so
//! that no later frame overtakes it (a sender finding the entry up has
//! to wait for the lock, so for the queue to be written, first).
//!
//! A remote pid or reference is kept as its view (node, numbers,
//! creation), not as a term: the table belongs to no process heap.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex, MutexGuard};

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::{ExternalPidView, RefView, Term};

use crate::ports::inet::InetPort;

/// A connection that is up.
pub struct Up {
    /// The socket port carrying it.
    pub port: Term,
    /// That socket.
    pub channel: Arc<InetPort>,
    /// The flags both nodes agreed on.
    pub flags: u64,
    /// The peer's creation.
    pub creation: u32,
}

/// A remote process monitoring a local one (`MONITOR_P` received).
#[derive(Clone, Copy)]
pub struct WatchedBy {
    /// The local process.
    pub local: Term,
    /// The name it was monitored by, if by name.
    pub name: Option<Atom>,
    /// The remote process.
    pub watcher: ExternalPidView,
    /// The monitor's reference (the remote node's).
    pub reference: RefView,
}

/// What a local process monitors on another node.
#[derive(Clone, Copy)]
pub enum Watched {
    /// A pid.
    Pid(ExternalPidView),
    /// A registered name there.
    Name(Atom),
}

/// A local process monitoring a remote one (`MONITOR_P` sent).
#[derive(Clone, Copy)]
pub struct Watching {
    /// The local process.
    pub local: Term,
    /// The monitor reference's ids (a local reference).
    pub ids: [u32; 3],
    /// What it monitors.
    pub target: Watched,
}

/// A `spawn_request/5` sent to another node, waiting for its reply.
pub struct PendingSpawn {
    /// The requesting process.
    pub local: Term,
    /// The request id's ids (a local reference), the monitor's too.
    pub ids: [u32; 3],
    /// The request asked for a monitor.
    pub monitor: bool,
    /// The request asked for a link.
    pub link: bool,
    /// The reply's tag (`spawn_reply` or the `reply_tag` option).
    pub tag: crate::process::Payload,
    /// Reply on success.
    pub on_success: bool,
    /// Reply on failure.
    pub on_error: bool,
}

/// One node's entry.
pub struct Entry {
    /// The connection's id (`erts_internal:new_connection/1`'s).
    pub conn_id: u32,
    /// The connection, once up.
    pub up: Option<Up>,
    /// Frames waiting for the connection to come up.
    pub queue: Vec<Vec<u8>>,
    /// `net_kernel` was asked for the connection (`auto_connect`), or is
    /// setting it up (`new_connection`).
    pub requested: bool,
    /// Links between a local process and one of that node's.
    pub links: Vec<(Term, ExternalPidView)>,
    /// That node's processes monitoring local ones.
    pub watched_by: Vec<WatchedBy>,
    /// Local processes monitoring that node's.
    pub watching: Vec<Watching>,
    /// Local processes that called `monitor_node(Node, true)`, once per
    /// call.
    pub node_monitors: Vec<Term>,
    /// Spawn requests sent, not answered yet.
    pub spawns: Vec<PendingSpawn>,
}

impl Entry {
    fn new(conn_id: u32) -> Entry {
        Entry {
            conn_id,
            up: None,
            queue: Vec::new(),
            requested: false,
            links: Vec::new(),
            watched_by: Vec::new(),
            watching: Vec::new(),
            node_monitors: Vec::new(),
            spawns: Vec::new(),
        }
    }
}

/// Every entry.
#[derive(Default)]
pub struct Table {
    /// By node name.
    pub nodes: HashMap<Atom, Entry>,
    next_conn: u32,
}

impl Table {
    /// The entry of `node`, made (pending, with a new connection id) if
    /// there is none.
    pub fn entry(&mut self, node: Atom) -> &mut Entry {
        ANY.store(true, Ordering::Relaxed);
        let next = &mut self.next_conn;
        self.nodes.entry(node).or_insert_with(|| {
            *next = next.wrapping_add(1);
            Entry::new(*next)
        })
    }

    /// The nodes whose connection is up: every one, or only the visible
    /// ones (`Some(true)`) or the hidden ones (`Some(false)`). A connection
    /// is visible when its flags (both sides', as `dist_util` agrees them
    /// for `setnode`) say published, as erts tells them apart.
    pub fn up_nodes(&self, visible: Option<bool>) -> Vec<Atom> {
        let mut nodes: Vec<Atom> = self
            .nodes
            .iter()
            .filter(|(_, e)| {
                e.up.as_ref().is_some_and(|up| {
                    visible.is_none_or(|v| super::flags::is_visible(up.flags) == v)
                })
            })
            .map(|(&n, _)| n)
            .collect();
        nodes.sort_by(|a, b| a.name().cmp(b.name()));
        nodes
    }
}

static TABLE: LazyLock<Mutex<Table>> = LazyLock::new(Mutex::default);

/// True once any entry was made: a process's end looks no further before.
static ANY: AtomicBool = AtomicBool::new(false);

/// Marks the distribution in use without an entry (a nodes monitor), so
/// that a process's end is looked at.
pub fn note_in_use() {
    ANY.store(true, Ordering::Relaxed);
}

/// The table, locked.
pub fn table() -> MutexGuard<'static, Table> {
    TABLE.lock().unwrap_or_else(|e| e.into_inner())
}

/// True once any entry was made.
#[inline]
pub fn any() -> bool {
    ANY.load(Ordering::Relaxed)
}

/// A remote pid as a term on `heap`.
pub fn pid_term(heap: &mut Heap, p: ExternalPidView) -> Term {
    heap.external_pid(p.node, p.id, p.serial, p.creation)
}

/// A reference (local or remote) as a term on `heap`.
pub fn ref_term(heap: &mut Heap, r: RefView) -> Term {
    if r.node == Atom::NONODE_NOHOST {
        heap.local_ref([r.ids[0], r.ids[1], r.ids[2]])
    } else {
        heap.external_ref(r.node, r.creation, r.ids())
    }
}
