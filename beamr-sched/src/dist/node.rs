//! The local node: its name and creation, set by `erlang:setnode/2` when
//! `net_kernel` starts, and whether its name is to be given by a peer
//! (`erts_internal:dynamic_node_name/0,1`).
//!
//! The name and creation live in beamr-core
//! ([`beamr_core::etf::local::this_node`]), which the External Term
//! Format reads for every local pid, port and reference it encodes or
//! decodes.

use std::sync::atomic::{AtomicBool, Ordering};

use beamr_core::atom::Atom;
use beamr_core::etf::local::{set_this_node, this_node};

/// `erts_internal:dynamic_node_name/1`'s setting.
static DYNAMIC_NAME: AtomicBool = AtomicBool::new(false);

/// True once the node has a name (`is_alive/0`).
pub fn is_alive() -> bool {
    this_node().0 != Atom::NONODE_NOHOST
}

/// The node's name (`node/0`).
pub fn name() -> Atom {
    this_node().0
}

/// The node's creation, `None` while it is not alive.
pub fn creation() -> Option<u32> {
    is_alive().then(|| this_node().1)
}

/// Why `setnode/2` refused a name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetNodeError {
    /// The name is not `Name@Host` with both parts non-empty.
    BadName,
    /// The node is alive under another name already.
    AlreadyAlive,
}

/// `erlang:setnode(Node, Creation)`: names the node. Naming it again with
/// its own name and creation is accepted, as erts accepts it.
pub fn set(node: Atom, creation: u32) -> Result<(), SetNodeError> {
    let text = node.name();
    match text.split_once('@') {
        Some((name, host)) if !name.is_empty() && !host.is_empty() && !host.contains('@') => {}
        _ => return Err(SetNodeError::BadName),
    }
    if is_alive() && this_node() != (node, creation) {
        return Err(SetNodeError::AlreadyAlive);
    }
    set_this_node(node, creation);
    Ok(())
}

/// `erts_internal:dynamic_node_name/0`.
pub fn dynamic_name() -> bool {
    DYNAMIC_NAME.load(Ordering::Relaxed)
}

/// `erts_internal:dynamic_node_name/1`.
pub fn set_dynamic_name(on: bool) {
    DYNAMIC_NAME.store(on, Ordering::Relaxed);
}
