//! The BIFs `net_kernel` and `dist_util` set connections up with:
//! `erts_internal:create_dist_channel/3` (behind `erlang:setnode/3`),
//! `new_connection/1`, `abort_pending_connection/2`, and
//! `erlang:monitor_node/2,3`.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::dist::connection::{abort_pending, conn_id_term, new_connection, setnode, SetupError};
use crate::dist::outgoing::{demonitor_node, monitor_node};
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    (
        "erts_internal",
        "create_dist_channel",
        3,
        create_dist_channel,
    ),
    ("erts_internal", "new_connection", 1, new_connection1),
    (
        "erts_internal",
        "abort_pending_connection",
        2,
        abort_pending_connection,
    ),
    ("erlang", "monitor_node", 2, monitor_node2),
    ("erlang", "monitor_node", 3, monitor_node3),
];

/// `create_dist_channel(Node, Port, {Flags, Creation})`: `{ok, DHandle}`,
/// or `badarg` (an atom, which `erlang:setnode/3` raises) for a
/// controller that is not a connected socket of this node (a process as
/// controller is not supported yet) or a node that is this one.
fn create_dist_channel(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let node = a[0].as_atom().ok_or_else(Exception::badarg)?;
    let Some(&[flags, creation]) = a[2].as_tuple().and_then(|t| <&[Term; 2]>::try_from(t).ok())
    else {
        return Err(Exception::badarg());
    };
    let flags = flags
        .as_small()
        .and_then(|f| u64::try_from(f).ok())
        .ok_or_else(Exception::badarg)?;
    let creation = creation
        .as_small()
        .and_then(|c| u32::try_from(c).ok())
        .ok_or_else(Exception::badarg)?;
    match setnode(rt, p.pid, node, a[1], flags, creation) {
        Ok(id) => {
            let handle = conn_id_term(&mut p.heap, node, id);
            Ok(p.heap.tuple(&[Term::OK, handle]))
        }
        Err(SetupError::NotASocket | SetupError::BadNode) => Ok(Term::atom(Atom::BADARG)),
    }
}

fn new_connection1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let node = a[0].as_atom().ok_or_else(Exception::badarg)?;
    if !crate::dist::node::is_alive() || node == crate::dist::node::name() {
        return Err(Exception::badarg());
    }
    let id = new_connection(node);
    Ok(conn_id_term(&mut p.heap, node, id))
}

/// The id in a connection id term `{Id, Node}` of `node`.
fn conn_id(t: Term, node: Atom) -> Option<u32> {
    match t.as_tuple()? {
        &[id, n] if n == Term::atom(node) => u32::try_from(id.as_small()?).ok(),
        _ => None,
    }
}

fn abort_pending_connection(rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let node = a[0].as_atom().ok_or_else(Exception::badarg)?;
    let id = conn_id(a[1], node).ok_or_else(Exception::badarg)?;
    Ok(Term::bool(abort_pending(rt, node, id)))
}

fn monitor_node2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let node = a[0].as_atom().ok_or_else(Exception::badarg)?;
    match a[1] {
        Term::TRUE if node == crate::dist::node::name() => {}
        Term::TRUE => monitor_node(rt, p.pid, node),
        Term::FALSE => demonitor_node(p.pid, node),
        _ => return Err(Exception::badarg()),
    }
    Ok(Term::TRUE)
}

/// `monitor_node(Node, Flag, Options)`: `allow_passive_connect` changes
/// nothing here.
fn monitor_node3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let opts = a[2].list_to_vec().ok_or_else(Exception::badarg)?;
    if !opts.iter().all(|o| {
        o.as_atom()
            .is_some_and(|o| o.name() == "allow_passive_connect")
    }) {
        return Err(Exception::badarg());
    }
    monitor_node2(rt, p, &a[..2])
}
