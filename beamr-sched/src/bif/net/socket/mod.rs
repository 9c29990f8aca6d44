//! The `socket` module's NIF (`prim_socket`'s `nif_*` functions, erts's
//! `prim_socket_nif.c`): OS sockets held by reference, every call
//! non-blocking, and a process that has to wait told so with a select
//! message when the socket is ready (see `object`).
//!
//! ```text
//! mod.rs      the rows, the arguments, the shared answers
//! object.rs   one socket: its OS socket, controller, waiters, readiness
//! setup.rs    open, bind, listen, accept, connect, close, shutdown, names
//! transfer.rs send, sendv, sendto, recv, recvfrom
//! control.rs  setopt, getopt, cancel, info, command
//! options.rs  the option table and its values
//! addr.rs     socket address maps
//! supports.rs nif_supports/0,1
//! ```
//!
//! `{ok, SockRef}` hands out a reference; a reference of a socket that
//! `close/1` and `finalize_close/1` ended denotes nothing any more and
//! every call on it answers `{error, closed}`, as erts's do for a closed
//! socket. What erts has and beamr does not (`sendmsg`/`recvmsg`,
//! `sendfile`, `ioctl`, native option values) answers `{error, notsup}`.

mod addr;
mod control;
mod object;
mod options;
mod setup;
mod supports;
mod transfer;

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use self::object::SocketObject;
use crate::bif::common::atoms::atom;
use crate::bif::common::resource::Resources;
use crate::loader::BifRow;
use crate::ports::errno_name;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this module.
pub(crate) const BIFS: &[BifRow] = &[
    ("prim_socket", "nif_supports", 0, control::supports0),
    ("prim_socket", "nif_supports", 1, control::supports1),
    ("prim_socket", "nif_command", 1, control::command),
    ("prim_socket", "nif_info", 0, control::info0),
    ("prim_socket", "nif_info", 1, control::info1),
    ("prim_socket", "nif_open", 2, setup::open2),
    ("prim_socket", "nif_open", 4, setup::open4),
    ("prim_socket", "nif_bind", 2, setup::bind),
    ("prim_socket", "nif_bind", 3, not_supported),
    ("prim_socket", "nif_listen", 2, setup::listen),
    ("prim_socket", "nif_accept", 2, setup::accept),
    ("prim_socket", "nif_connect", 1, setup::connect1),
    ("prim_socket", "nif_connect", 3, setup::connect3),
    ("prim_socket", "nif_close", 1, setup::close),
    (
        "prim_socket",
        "nif_finalize_close",
        1,
        setup::finalize_close,
    ),
    ("prim_socket", "nif_shutdown", 2, setup::shutdown),
    ("prim_socket", "nif_sockname", 1, setup::sockname),
    ("prim_socket", "nif_peername", 1, setup::peername),
    ("prim_socket", "nif_send", 4, transfer::send),
    ("prim_socket", "nif_sendto", 5, transfer::sendto),
    ("prim_socket", "nif_sendmsg", 5, not_supported),
    ("prim_socket", "nif_sendv", 3, transfer::sendv),
    ("prim_socket", "nif_sendfile", 1, not_supported),
    ("prim_socket", "nif_sendfile", 4, not_supported),
    ("prim_socket", "nif_sendfile", 5, not_supported),
    ("prim_socket", "nif_recv", 4, transfer::recv),
    ("prim_socket", "nif_recvfrom", 4, transfer::recvfrom),
    ("prim_socket", "nif_recvmsg", 5, not_supported),
    ("prim_socket", "nif_setopt", 5, control::setopt),
    ("prim_socket", "nif_getopt", 3, control::getopt3),
    ("prim_socket", "nif_getopt", 4, not_supported),
    ("prim_socket", "nif_getopt", 5, not_supported),
    ("prim_socket", "nif_ioctl", 2, not_supported),
    ("prim_socket", "nif_ioctl", 3, not_supported),
    ("prim_socket", "nif_ioctl", 4, not_supported),
    ("prim_socket", "nif_cancel", 3, control::cancel),
];

/// The reference tag of sockets.
const SOCKET_TAG: u32 = 0x0050_C400;

/// Every open socket, by its reference.
static SOCKETS: Resources<SocketObject> = Resources::new(SOCKET_TAG);

/// An integer argument that fits in a small.
pub(super) fn int(t: Term) -> Option<i64> {
    t.is_small().then(|| t.small_value())
}

/// The small integer `v` (socket numbers, ports and counts all fit).
pub(super) fn small(v: i64) -> Term {
    Term::small_unchecked(v)
}

/// What a socket argument denotes.
enum Arg {
    /// An open (or closing) socket.
    Socket(Arc<SocketObject>),
    /// A socket that has been closed and finalized.
    Gone,
}

/// The socket reference `t`; `badarg` when it is not one.
fn socket_arg(t: Term) -> Result<Arg, Exception> {
    match SOCKETS.get(t) {
        Some(s) => Ok(Arg::Socket(s)),
        None if SOCKETS.is_kind(t) => Ok(Arg::Gone),
        None => Err(Exception::badarg()),
    }
}

/// Runs `f` on the socket `t` denotes; `{error, closed}` for one gone.
fn with_socket(
    p: &mut Process,
    t: Term,
    f: impl FnOnce(&mut Process, &Arc<SocketObject>) -> Term,
) -> Result<Term, Exception> {
    match socket_arg(t)? {
        Arg::Socket(s) => Ok(f(p, &s)),
        Arg::Gone => Ok(error(p, "closed")),
    }
}

/// Runs `f` on the open socket `t` denotes: its OS socket and the rest
/// of its state, locked; `{error, closed}` once it is closed or gone.
fn with_open(
    p: &mut Process,
    t: Term,
    f: impl FnOnce(&mut Process, &socket2::Socket, &mut object::Tracked) -> Term,
) -> Result<Term, Exception> {
    with_socket(p, t, |p, s| match s.with_open(|os, st| f(p, os, st)) {
        Some(answer) => answer,
        None => error(p, "closed"),
    })
}

/// A select handle: a local reference's id words.
fn handle_arg(t: Term) -> Result<[u32; 3], Exception> {
    match t.as_ref() {
        Some(r) if r.len == 3 && r.node == Atom::NONODE_NOHOST => {
            Ok([r.ids[0], r.ids[1], r.ids[2]])
        }
        _ => Err(Exception::badarg()),
    }
}

/// `{error, Reason}`.
fn error(p: &mut Process, reason: &str) -> Term {
    p.heap.tuple(&[Term::atom(Atom::ERROR), atom(reason)])
}

/// `{error, Posix}` for `e`.
fn os_error(p: &mut Process, e: &std::io::Error) -> Term {
    let name = errno_name(e.raw_os_error().unwrap_or(libc::EIO));
    error(p, name)
}

/// `{invalid, What}`, which `prim_socket` turns into its own error.
fn invalid(p: &mut Process, what: &str) -> Term {
    p.heap.tuple(&[atom("invalid"), atom(what)])
}

/// `ok`.
fn ok() -> Term {
    Term::atom(Atom::OK)
}

/// `{ok, Value}`.
fn ok_tuple(p: &mut Process, value: Term) -> Term {
    p.heap.tuple(&[ok(), value])
}

/// Whether `e` says the call would have blocked.
fn would_block(e: &std::io::Error) -> bool {
    e.kind() == std::io::ErrorKind::WouldBlock
}

/// An operation of erts's NIF that beamr does not have:
/// `{error, notsup}`, erts's answer where the platform lacks it.
fn not_supported(_rt: &Runtime, p: &mut Process, _a: &[Term]) -> Result<Term, Exception> {
    Ok(error(p, "notsup"))
}
