//! Signals to other nodes' processes: the hooks through which they leave
//! this node. The distribution (the dist module, above this layer) installs
//! them when the runtime is made; until then, and for a node that is not
//! alive, a signal to another node's pid goes nowhere, as on an erl
//! started without a name.

use std::sync::OnceLock;

use beamr_core::term::Term;

use crate::process::Signal;
use crate::runtime::Runtime;

/// What the distribution does with signals that leave the node.
#[derive(Clone, Copy)]
pub struct RemoteHooks {
    /// A signal (message, exit, link, unlink, `'DOWN'`) to another node's
    /// pid; false when it went nowhere.
    pub signal: fn(&Runtime, Term, Signal),
    /// A message from `from` to another node's pid, `{Name, Node}` or
    /// alias (`dest`, on the sender's heap), with the sender's stamped
    /// `seq_trace` token (`[]` for none).
    pub send: fn(&Runtime, Term, Term, Term, Term),
    /// A local process ended with this reason: its links and monitors
    /// across nodes hear of it.
    pub exited: fn(&Runtime, Term, Term),
}

static HOOKS: OnceLock<RemoteHooks> = OnceLock::new();

/// Installs the distribution's hooks (once; later calls change nothing).
pub fn install(hooks: RemoteHooks) {
    let _ = HOOKS.set(hooks);
}

/// A signal to `to`, a pid of another node.
#[cold]
pub(crate) fn signal(rt: &Runtime, to: Term, signal: Signal) {
    if let Some(h) = HOOKS.get() {
        (h.signal)(rt, to, signal);
    }
}

/// A message from `from` to `dest` on another node, with its `seq_trace`
/// token (`[]` for none).
#[cold]
pub(crate) fn send(rt: &Runtime, from: Term, dest: Term, msg: Term, token: Term) {
    if let Some(h) = HOOKS.get() {
        (h.send)(rt, from, dest, msg, token);
    }
}

/// `pid` ended with `reason`.
#[inline]
pub(crate) fn exited(rt: &Runtime, pid: Term, reason: Term) {
    if let Some(h) = HOOKS.get() {
        (h.exited)(rt, pid, reason);
    }
}
