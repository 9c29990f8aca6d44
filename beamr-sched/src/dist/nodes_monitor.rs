//! `net_kernel:monitor_nodes/1,2`: erts's nodes monitors, which OTP's
//! `net_kernel` reaches through the process flags `monitor_nodes` and
//! `{monitor_nodes, Options}`. A subscribed process gets `{nodeup, Node}`
//! and `{nodedown, Node}` (or `{nodeup, Node, Info}` with options) as
//! connections come and go, and as this node comes alive or leaves.
//!
//! Each process holds one subscription per distinct set of options, with
//! a count: turning it on again adds one, off removes the subscription
//! (erts's answer in both cases is the count before).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{LazyLock, Mutex, MutexGuard};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::process::Payload;
use crate::process::Signal;
use crate::runtime::Runtime;

/// The shape of a subscription's messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Shape {
    /// `{nodeup, Node}`: the plain flag, no options.
    #[default]
    Plain,
    /// `{nodeup, Node, [...]}`: options with `list => true`.
    List,
    /// `{nodeup, Node, #{...}}`: options as a map.
    Map,
}

/// Which messages a subscription gets, and in which shape (erts's option
/// bits, `ERTS_NODES_MON_OPT_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Options {
    /// How the messages look.
    pub shape: Shape,
    /// `connection_id => true`.
    pub connection_id: bool,
    /// `node_type`: visible connections (with `hidden`, `all`).
    pub visible: bool,
    /// `node_type`: hidden connections.
    pub hidden: bool,
    /// `nodedown_reason => true`.
    pub nodedown_reason: bool,
}

impl Options {
    /// The options of `process_flag({monitor_nodes, Options}, _)`: `[]`
    /// for none (the plain flag), else the map `net_kernel` builds; `None`
    /// for anything erts refuses (`badarg`).
    pub fn parse(options: Term) -> Option<Options> {
        if options.is_nil() {
            return Some(Options::default());
        }
        let pairs = beamr_core::map::iter(options)?;
        let mut o = Options {
            shape: Shape::Map,
            ..Options::default()
        };
        for (k, v) in pairs {
            let flag = |v: Term| match v {
                Term::TRUE => Some(true),
                Term::FALSE => Some(false),
                _ => None,
            };
            match k.as_atom().map(Atom::name)? {
                "list" if v == Term::TRUE => o.shape = Shape::List,
                "connection_id" => o.connection_id = flag(v)?,
                "nodedown_reason" => o.nodedown_reason = flag(v)?,
                "node_type" => match v.as_atom().map(Atom::name)? {
                    "visible" => o.visible = true,
                    "hidden" => o.hidden = true,
                    "all" => (o.visible, o.hidden) = (true, true),
                    _ => return None,
                },
                _ => return None,
            }
        }
        Some(o)
    }

    /// Whether a connection of this kind concerns the subscription:
    /// without a `node_type`, visible ones only.
    fn wants(&self, visible: bool) -> bool {
        if !self.visible && !self.hidden {
            return visible;
        }
        if visible {
            self.visible
        } else {
            self.hidden
        }
    }
}

struct Subscription {
    pid: Term,
    options: Options,
    count: u64,
}

static SUBSCRIPTIONS: LazyLock<Mutex<Vec<Subscription>>> = LazyLock::new(Mutex::default);

/// Set once any process subscribed: until then a process's end does not
/// take the subscriptions' lock.
static EVER_SUBSCRIBED: AtomicBool = AtomicBool::new(false);

fn subscriptions() -> MutexGuard<'static, Vec<Subscription>> {
    SUBSCRIPTIONS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Turns `pid`'s subscription with `options` on (one more) or off (gone);
/// returns its count before, as erts's process flag answers.
pub fn set(pid: Term, options: Options, on: bool) -> u64 {
    super::table::note_in_use();
    EVER_SUBSCRIBED.store(true, Ordering::Relaxed);
    let mut subs = subscriptions();
    let found = subs
        .iter()
        .position(|s| s.pid == pid && s.options == options);
    match (found, on) {
        (Some(i), true) => {
            subs[i].count += 1;
            subs[i].count - 1
        }
        (None, true) => {
            subs.push(Subscription {
                pid,
                options,
                count: 1,
            });
            0
        }
        (Some(i), false) => subs.remove(i).count,
        (None, false) => 0,
    }
}

/// `pid` ended: its subscriptions go.
pub fn process_exited(pid: Term) {
    if !EVER_SUBSCRIBED.load(Ordering::Relaxed) {
        return;
    }
    subscriptions().retain(|s| s.pid != pid);
}

/// What happened to a node, for [`notify`].
#[derive(Clone, Copy)]
pub enum Event {
    /// `nodeup`.
    Up,
    /// `nodedown`, with its reason (`connection_closed`, ...).
    Down(Atom),
}

/// Tells every subscription that wants it that `node`'s connection
/// (`conn_id`, `None` for this node itself) of the given visibility came
/// up or went down.
pub fn notify(rt: &Runtime, event: Event, node: Atom, conn_id: Option<u32>, visible: bool) {
    let targets: Vec<(Term, Options)> = subscriptions()
        .iter()
        .filter(|s| s.options.wants(visible))
        .map(|s| (s.pid, s.options))
        .collect();
    for (pid, options) in targets {
        let message = Payload::build(|h| {
            let what = Term::atom(atom(match event {
                Event::Up => "nodeup",
                Event::Down(_) => "nodedown",
            }));
            let node = Term::atom(node);
            if options.shape == Shape::Plain {
                return h.tuple(&[what, node]);
            }
            let mut info: Vec<(Term, Term)> = Vec::new();
            if options.connection_id {
                let id = conn_id.map_or(Term::atom(Atom::UNDEFINED), |id| h.int(i64::from(id)));
                info.push((Term::atom(atom("connection_id")), id));
            }
            if let (Event::Down(reason), true) = (event, options.nodedown_reason) {
                info.push((Term::atom(atom("nodedown_reason")), Term::atom(reason)));
            }
            if options.visible || options.hidden {
                let kind = atom(if visible { "visible" } else { "hidden" });
                info.push((Term::atom(atom("node_type")), Term::atom(kind)));
            }
            let info = if options.shape == Shape::Map {
                beamr_core::map::from_pairs(h, &info)
            } else {
                // erts's list: connection_id, nodedown_reason, node_type.
                let tuples: Vec<Term> = info.iter().map(|&(k, v)| h.tuple(&[k, v])).collect();
                h.list(&tuples)
            };
            h.tuple(&[what, node, info])
        });
        rt.send_signal(pid, Signal::Message(message, None));
    }
}

fn atom(name: &str) -> Atom {
    Atom::new(name).unwrap_or(Atom::UNDEFINED)
}
