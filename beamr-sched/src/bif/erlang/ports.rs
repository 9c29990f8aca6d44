//! `erlang` BIFs on ports: `open_port/2`, `port_command/2,3`,
//! `port_close/1`, `port_connect/2`, `port_info/1,2`, `ports/0`,
//! `port_control/3`, `port_call/2,3`, `port_set_data/2`, `port_get_data/1`.
//!
//! In OTP these are Erlang functions in `erlang.erl` over
//! `erts_internal` calls; here they are native, and raise what those
//! raise: `badarg` for a bad argument or a port that has exited
//! (`port_info` answers `undefined` for one), and `open_port/2` the
//! error of a program that cannot start (`enoent`, `eacces`).

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::binaries::iodata_bytes;
use crate::bif::common::atoms::atom;
use crate::loader::BifRow;
use crate::process::{Exception, Process, Signal};
use crate::runtime::{Port, Runtime, Sent};

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("erlang", "open_port", 2, open_port),
    ("erlang", "port_command", 2, port_command2),
    ("erlang", "port_command", 3, port_command3),
    ("erlang", "port_close", 1, port_close),
    ("erlang", "port_connect", 2, port_connect),
    ("erlang", "port_info", 1, port_info1),
    ("erlang", "port_info", 2, port_info2),
    ("erlang", "ports", 0, ports),
    ("erlang", "port_control", 3, port_control),
    ("erlang", "port_call", 2, port_call),
    ("erlang", "port_call", 3, port_call),
    ("erlang", "port_set_data", 2, port_set_data),
    ("erlang", "port_get_data", 1, port_get_data),
];

/// `port_set_data(Port, Data)`: keeps a copy of Data with the port
/// (`inet_db:register_socket/2` stores a socket's module so).
fn port_set_data(rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let port = live_port(rt, a[0])?;
    port.state().data = Some(crate::process::Payload::copy(a[1]));
    Ok(Term::TRUE)
}

/// `port_get_data(Port)`: what `port_set_data/2` stored, `undefined`
/// before; `badarg` for a port that has exited.
fn port_get_data(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let port = live_port(rt, a[0])?;
    let state = port.state();
    Ok(match &state.data {
        Some(data) => p.heap.copy_term(data.term),
        None => Term::atom(Atom::UNDEFINED),
    })
}

/// `port_call(Port, Operation, Data)` and `port_call(Port, Data)`
/// (operation 0): `badarg`. erts answers so for every port beamr opens:
/// the spawn, spawn_executable and fd drivers, the inet and the trace
/// drivers have no call callback (the port is scheduled in and out for
/// it: `Runtime::port_call`), and a bad port or operation is `badarg` at
/// once. The port stays open.
fn port_call(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let port = live_port(rt, a[0])?;
    if a.len() == 3 {
        a[1].as_small()
            .and_then(|n| u32::try_from(n).ok())
            .ok_or_else(Exception::badarg)?;
    }
    rt.port_call(&port, p.pid).ok_or_else(Exception::badarg)
}

/// `open_port(PortName, PortSettings)`: the port, linked to and connected
/// with the caller.
fn open_port(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    // An atom for {spawn, Atom}: OTP 25 takes it, OTP 27 refuses it.
    if a[0].as_atom().is_some() && crate::code::otp_release() >= 26 {
        return Err(Exception::badarg());
    }
    let (name, options) = crate::ports::parse(a[0], a[1])?;
    let port = crate::ports::open(
        rt,
        p.pid,
        name,
        options,
        crate::bif::os::bifs::environment_now(),
    )?;
    p.links.push(port);
    Ok(port)
}

/// A live port argument (a port, or a name registered for one).
fn live_port(rt: &Runtime, t: Term) -> Result<std::sync::Arc<Port>, Exception> {
    let t = match t.as_atom() {
        Some(name) => rt.names.whereis(name).ok_or_else(Exception::badarg)?,
        None => t,
    };
    if !t.is_port() {
        return Err(Exception::badarg());
    }
    rt.ports.get(t).ok_or_else(Exception::badarg)
}

fn port_command2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    port_command3(rt, p, &[a[0], a[1], Term::NIL])
}

/// `port_command(Port, Data, Options)`: `nosuspend` changes nothing (a
/// port is never busy here); `force` is `notsup`, as erts's spawn and fd
/// drivers answer it, but for an inet socket, whose driver takes it (the
/// distribution's ticks are sent so). Writing to an input-only port makes it exit with
/// `ebadf`, as erts does; Data that is not iodata is `badarg` and logged
/// as "Bad value on output port".
fn port_command3(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let port = live_port(rt, a[0])?;
    let Some(data) = port.iodata(a[1]) else {
        // erts logs it too; the port stays.
        rt.log_bad_port_output(p.pid, &port.name);
        return Err(Exception::badarg());
    };
    let opts = a[2]
        .list_to_vec()
        .ok_or_else(|| Exception::badarg_cause(atom("badopt")))?;
    if !opts.iter().all(|o| {
        o.as_atom()
            .is_some_and(|o| matches!(o.name(), "force" | "nosuspend"))
    }) {
        return Err(Exception::badarg_cause(atom("badopt")));
    }
    // erts's spawn and fd drivers cannot take data when busy; its inet
    // driver can.
    let inet = port
        .driver
        .as_ref()
        .and_then(|d| d.as_any())
        .is_some_and(|d| d.is::<crate::ports::inet::InetPort>());
    if !inet
        && opts
            .iter()
            .any(|o| o.as_atom().is_some_and(|o| o.name() == "force"))
    {
        return Err(Exception::error(atom("notsup")));
    }
    if !port.writable {
        rt.port_exit(port.id, atom("ebadf"), None);
        return Ok(Term::TRUE);
    }
    match port.command_by(rt, p.pid, data) {
        Sent::Sent => {}
        // Too large for the packet header: the port ends, as in erts.
        Sent::TooLarge => {
            rt.port_exit(port.id, atom("einval"), None);
        }
        Sent::Closed => return Err(Exception::badarg()),
    }
    Ok(Term::TRUE)
}

/// `port_close(Port)`: the port exits with reason `normal`. As in erts,
/// where the close is synchronous, the caller's own exit signal from the
/// port (an `'EXIT'` message when it traps exits) is in its mailbox when
/// the call returns (`prim_inet:close/1` flushes it with `after 0`).
fn port_close(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let port = live_port(rt, a[0])?;
    let end = crate::signals::PortEnd::Close(p.pid);
    if !rt.port_exit_by(port.id, Term::atom(Atom::NORMAL), None, end) {
        return Err(Exception::badarg());
    }
    if p.links.contains(&port.id) {
        crate::signals::deliver_pending(rt, p);
    }
    Ok(Term::TRUE)
}

/// `port_connect(Port, Pid)`: Pid becomes the connected process and is
/// linked to the port; the old owner stays linked.
fn port_connect(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let port = live_port(rt, a[0])?;
    let pid = a[1];
    if !pid.is_local_pid() || (pid != p.pid && rt.processes.get(pid).is_none()) {
        return Err(Exception::badarg());
    }
    if !rt.port_connect(port.id, pid, p.pid) {
        return Err(Exception::badarg());
    }
    if pid == p.pid {
        if !p.links.contains(&port.id) {
            p.links.push(port.id);
        }
    } else {
        rt.send_signal(pid, Signal::Link { from: port.id });
    }
    Ok(Term::TRUE)
}

/// The items `port_info/1` lists, in erts's order.
const INFO_ITEMS: &[&str] = &[
    "name",
    "links",
    "id",
    "connected",
    "input",
    "output",
    "os_pid",
];

/// `port_info(Port)`: `[{Item, Value}]` (its registered name first, if
/// it has one), or `undefined` for a port that has exited.
fn port_info1(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let Some(port) = info_port(rt, a[0])? else {
        return Ok(Term::atom(Atom::UNDEFINED));
    };
    let mut items = Vec::new();
    if let Some(name) = port.state().registered_name {
        items.push(p.heap.tuple(&[atom("registered_name"), Term::atom(name)]));
    }
    for &item in INFO_ITEMS {
        let Some(value) = info_item(p, &port, item) else {
            continue;
        };
        items.push(p.heap.tuple(&[atom(item), value]));
    }
    Ok(p.heap.list(&items))
}

/// `port_info(Port, Item)`: `{Item, Value}`, or `undefined`.
fn port_info2(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let item = a[1].as_atom().ok_or_else(Exception::badarg)?;
    let port = info_port(rt, a[0])?;
    // The items only port_info/2 answers, beside port_info/1's.
    let asked_only = [
        "registered_name",
        "memory",
        "monitors",
        "monitored_by",
        "queue_size",
        "parallelism",
        "locking",
    ];
    if !INFO_ITEMS.contains(&item.name()) && !asked_only.contains(&item.name()) {
        return Err(Exception::badarg());
    }
    let Some(port) = port else {
        return Ok(Term::atom(Atom::UNDEFINED));
    };
    match info_item(p, &port, item.name()) {
        // A port without a name answers [] alone.
        Some(Term::NIL) if item.name() == "registered_name" => Ok(Term::NIL),
        Some(value) => Ok(p.heap.tuple(&[Term::atom(item), value])),
        None => Ok(Term::atom(Atom::UNDEFINED)),
    }
}

/// The port `port_info` asks about: `None` when it has exited (or an
/// atom names no port); `badarg` for anything but a port or an atom.
fn info_port(rt: &Runtime, t: Term) -> Result<Option<std::sync::Arc<Port>>, Exception> {
    if let Some(name) = t.as_atom() {
        return Ok(rt
            .names
            .whereis(name)
            .filter(|t| t.is_port())
            .and_then(|t| rt.ports.get(t)));
    }
    if !t.is_port() {
        return Err(Exception::badarg());
    }
    Ok(rt.ports.get(t))
}

/// One `port_info` item's value; `None` when the port has none.
fn info_item(p: &mut Process, port: &Port, item: &str) -> Option<Term> {
    let state = port.state();
    let value = match item {
        "name" => p.heap.string(&port.name),
        "links" => {
            let mut links = state.links.clone();
            links.reverse();
            p.heap.list(&links)
        }
        "id" => Term::small_unchecked(port.id.as_local_port()? as i64),
        "connected" => state.owner,
        "input" => p.heap.int(state.input as i64),
        "output" => p.heap.int(state.output as i64),
        "os_pid" => match port.os_pid {
            Some(pid) => Term::small_unchecked(i64::from(pid)),
            None => Term::atom(Atom::UNDEFINED),
        },
        "registered_name" => state.registered_name.map_or(Term::NIL, Term::atom),
        "memory" => Term::small_unchecked(std::mem::size_of::<Port>() as i64),
        "monitors" => Term::NIL,
        "monitored_by" => {
            let pids: Vec<Term> = state.monitors.iter().map(|&(_, pid)| pid).collect();
            p.heap.list(&pids)
        }
        "queue_size" => Term::small_unchecked(0),
        "parallelism" => Term::FALSE,
        "locking" => atom("port_level"),
        _ => return None,
    };
    Some(value)
}

/// `erlang:ports()`: every live port.
fn ports(rt: &Runtime, p: &mut Process, _: &[Term]) -> Result<Term, Exception> {
    let ids = rt.ports.ids();
    Ok(p.heap.list(&ids))
}

/// `port_control(Port, Operation, Data)`: the built-in driver's answer, a
/// list of bytes or a binary as the driver gives it; `badarg` for a port
/// without a driver that takes control operations (a program's), or an
/// operation its driver does not know. A traced port shows the request
/// (`Runtime::port_control`).
fn port_control(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let port = live_port(rt, a[0])?;
    let op = a[1]
        .as_small()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(Exception::badarg)?;
    let data = iodata_bytes(a[2])?;
    let (reply, binary) = rt
        .port_control(&port, p.pid, op, &data)
        .ok_or_else(Exception::badarg)?;
    if binary {
        Ok(p.heap.binary(&reply))
    } else {
        Ok(p.heap.byte_list(&reply, Term::NIL))
    }
}
