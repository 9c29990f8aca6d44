//! `erlang:setnode/2`, `node/0,1`, `nodes/0,1`, `is_alive/0`, and
//! `erts_internal`'s `get_dflags/0`, `get_creation/0` and
//! `dynamic_node_name/0,1`.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::bif::common::atoms::atom;
use crate::dist::{flags, node};
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "setnode", 2, setnode2),
    ("erlang", "node", 0, node0),
    ("erlang", "node", 1, node1),
    ("erlang", "nodes", 0, nodes0),
    ("erlang", "nodes", 1, nodes1),
    ("erlang", "nodes", 2, nodes2),
    ("erlang", "is_alive", 0, is_alive),
    ("erts_internal", "get_dflags", 0, get_dflags),
    ("erts_internal", "get_creation", 0, get_creation),
    ("erts_internal", "dynamic_node_name", 0, dynamic_node_name0),
    ("erts_internal", "dynamic_node_name", 1, dynamic_node_name1),
];

/// `setnode(Node, Creation)`: `true`, or `badarg` for a name that is not
/// `Name@Host`, a creation that is not a 32-bit integer, or a node alive
/// under another name.
fn setnode2(rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let name = a[0].as_atom().ok_or_else(Exception::badarg)?;
    let creation = a[1]
        .as_small()
        .and_then(|c| u32::try_from(c).ok())
        .ok_or_else(Exception::badarg)?;
    node::set(name, creation).map_err(|_| Exception::badarg())?;
    // erts tells the nodes monitors that this node came up.
    crate::dist::nodes_monitor::notify(rt, crate::dist::nodes_monitor::Event::Up, name, None, true);
    Ok(Term::TRUE)
}

fn node0(_rt: &Runtime, _p: &mut Process, _a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::atom(node::name()))
}

/// `node(Arg)`: the node of a pid, port or reference.
fn node1(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let t = a[0];
    if t.is_local_pid() || t.is_local_port() {
        return Ok(Term::atom(node::name()));
    }
    if let Some(pid) = t.as_external_pid() {
        return Ok(Term::atom(pid.node));
    }
    if let Some(port) = t.as_external_port() {
        return Ok(Term::atom(port.node));
    }
    if let Some(r) = t.as_ref() {
        return Ok(Term::atom(if r.node == Atom::NONODE_NOHOST {
            node::name()
        } else {
            r.node
        }));
    }
    Err(Exception::badarg())
}

/// `nodes()`: the visible nodes connected.
fn nodes0(_rt: &Runtime, p: &mut Process, _a: &[Term]) -> Result<Term, Exception> {
    let nodes: Vec<Term> = crate::dist::table::table()
        .up_nodes(Some(true))
        .into_iter()
        .map(Term::atom)
        .collect();
    Ok(p.heap.list(&nodes))
}

/// `nodes(Arg)`: `visible`, `hidden`, `connected` (both), `this`,
/// `known` or a list of them; `this` names this node while it is alive.
/// As erts lists them: this node, then the visible, then the hidden.
fn nodes1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let kinds = match a[0].as_atom() {
        Some(k) => vec![k],
        None => a[0]
            .list_to_vec()
            .ok_or_else(Exception::badarg)?
            .iter()
            .map(|k| k.as_atom().ok_or_else(Exception::badarg))
            .collect::<Result<Vec<_>, _>>()?,
    };
    let (mut this, mut visible, mut hidden) = (false, false, false);
    for k in kinds {
        match k.name() {
            "visible" => visible = true,
            "hidden" => hidden = true,
            "connected" => (visible, hidden) = (true, true),
            "this" => this = true,
            "known" => (this, visible, hidden) = (true, true, true),
            _ => return Err(Exception::badarg()),
        }
    }
    let mut nodes = Vec::new();
    if this && node::is_alive() {
        nodes.push(Term::atom(node::name()));
    }
    let table = crate::dist::table::table();
    for (wanted, kind) in [(visible, true), (hidden, false)] {
        if wanted {
            nodes.extend(table.up_nodes(Some(kind)).into_iter().map(Term::atom));
        }
    }
    drop(table);
    Ok(p.heap.list(&nodes))
}

/// `nodes(Arg, InfoOpts)` (OTP 25 on): `{Node, Info}` for each node
/// `nodes(Arg)` lists, Info a map of the `connection_id` and `node_type`
/// that `InfoOpts` (a map of those keys to booleans) asks for; this node
/// has no connection id (`undefined`) and the type `this`.
fn nodes2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let mut want = (false, false);
    for (k, v) in beamr_core::map::iter(a[1]).ok_or_else(Exception::badarg)? {
        let on = match v {
            Term::TRUE => true,
            Term::FALSE => false,
            _ => return Err(Exception::badarg()),
        };
        match k.as_atom().map(Atom::name) {
            Some("connection_id") => want.0 = on,
            Some("node_type") => want.1 = on,
            _ => return Err(Exception::badarg()),
        }
    }
    let listed = nodes1(rt, p, &a[..1])?;
    let names = listed.list_to_vec().unwrap_or_default();
    let mut out = Vec::with_capacity(names.len());
    for n in names {
        let Some(name) = n.as_atom() else { continue };
        let (conn_id, kind) = if node::is_alive() && name == node::name() {
            (None, "this")
        } else {
            let t = crate::dist::table::table();
            match t
                .nodes
                .get(&name)
                .and_then(|e| e.up.as_ref().map(|u| (e.conn_id, u.flags)))
            {
                Some((id, f)) if flags::is_visible(f) => (Some(id), "visible"),
                Some((id, _)) => (Some(id), "hidden"),
                None => (None, "known"),
            }
        };
        let mut info = Vec::new();
        if want.0 {
            let id = conn_id.map_or(Term::atom(Atom::UNDEFINED), |id| p.heap.int(i64::from(id)));
            info.push((atom("connection_id"), id));
        }
        if want.1 {
            info.push((atom("node_type"), atom(kind)));
        }
        let info = beamr_core::map::from_pairs(&mut p.heap, &info);
        out.push(p.heap.tuple(&[n, info]));
    }
    Ok(p.heap.list(&out))
}

fn is_alive(_rt: &Runtime, _p: &mut Process, _a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(node::is_alive()))
}

/// `{erts_dflags, Default, Mandatory, Addable, Rejectable, StrictOrder}`
/// as `dist_util` reads it.
fn get_dflags(_rt: &Runtime, p: &mut Process, _a: &[Term]) -> Result<Term, Exception> {
    let release = crate::code::otp_release();
    let fields = [
        Term::atom(Atom::new("erts_dflags").map_err(|_| Exception::badarg())?),
        p.heap.int(flags::DEFAULT as i64),
        p.heap.int(flags::mandatory(release) as i64),
        p.heap.int(flags::DEFAULT as i64),
        p.heap.int(flags::REJECTABLE as i64),
        p.heap.int(flags::STRICT_ORDER as i64),
    ];
    Ok(p.heap.tuple(&fields))
}

/// The creation, or `undefined` while the node is not alive.
fn get_creation(_rt: &Runtime, p: &mut Process, _a: &[Term]) -> Result<Term, Exception> {
    Ok(match node::creation() {
        Some(c) => p.heap.int(i64::from(c)),
        None => Term::atom(Atom::UNDEFINED),
    })
}

fn dynamic_node_name0(_rt: &Runtime, _p: &mut Process, _a: &[Term]) -> Result<Term, Exception> {
    Ok(Term::bool(node::dynamic_name()))
}

fn dynamic_node_name1(_rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let on = match a[0] {
        Term::TRUE => true,
        Term::FALSE => false,
        _ => return Err(Exception::badarg()),
    };
    node::set_dynamic_name(on);
    Ok(Term::TRUE)
}
