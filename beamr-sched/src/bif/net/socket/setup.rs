//! A socket's life: `nif_open/4`, `nif_bind/2`, `nif_listen/2`,
//! `nif_accept/2`, `nif_connect/1,3`, `nif_close/1`,
//! `nif_finalize_close/1`, `nif_shutdown/2`, `nif_sockname/1`,
//! `nif_peername/1`.

use std::net::Shutdown;
use std::sync::Arc;

use beamr_core::term::Term;
use socket2::{Domain, Protocol, Socket, Type};

use super::object::{Op, SocketObject, Waiter};
use super::{
    addr, error, handle_arg, int, invalid, ok, ok_tuple, os_error, socket_arg, with_open,
    with_socket, would_block, Arg, SOCKETS,
};
use crate::bif::common::atoms::atom;
use crate::process::{Exception, OwnedResource, Process};
use crate::runtime::Runtime;

/// The OS's number for domain `t`: `inet`, `inet6`, `local` or a number.
fn domain_number(t: Term) -> Option<i32> {
    match t.as_atom().map(|a| a.name()) {
        Some("inet") => Some(libc::AF_INET),
        Some("inet6") => Some(libc::AF_INET6),
        Some("local") => Some(libc::AF_UNIX),
        Some(_) => None,
        None => i32::try_from(int(t)?).ok(),
    }
}

/// The OS's number for socket type `t`.
fn type_number(t: Term) -> Option<i32> {
    match t.as_atom().map(|a| a.name()) {
        Some("stream") => Some(libc::SOCK_STREAM),
        Some("dgram") => Some(libc::SOCK_DGRAM),
        Some("seqpacket") => Some(libc::SOCK_SEQPACKET),
        Some("raw") => Some(libc::SOCK_RAW),
        Some("rdm") => Some(libc::SOCK_RDM),
        Some(_) => None,
        None => i32::try_from(int(t)?).ok(),
    }
}

/// `nif_open(Domain, Type, Protocol, Opts)`: `{ok, SockRef}`,
/// `{error, Posix}` or `{invalid, domain | type}`.
pub(super) fn open4(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    if !a[3].is_map() {
        return Err(Exception::badarg());
    }
    let Some(domain) = domain_number(a[0]) else {
        return Ok(invalid(p, "domain"));
    };
    let Some(kind) = type_number(a[1]) else {
        return Ok(invalid(p, "type"));
    };
    let protocol = int(a[2])
        .and_then(|n| i32::try_from(n).ok())
        .ok_or_else(Exception::badarg)?;
    if beamr_core::map::get(a[3], atom("netns")).is_some() {
        return Ok(error(p, "notsup"));
    }
    let os = Socket::new(
        Domain::from(domain),
        Type::from(kind),
        (protocol != 0).then(|| Protocol::from(protocol)),
    );
    let os = match os.and_then(|s| s.set_nonblocking(true).map(|()| s)) {
        Ok(s) => s,
        Err(e) => return Ok(os_error(p, &e)),
    };
    // The protocol the OS chose for a default (0), as erts reports it.
    let protocol = match os.protocol() {
        Ok(Some(chosen)) if protocol == 0 => i32::from(chosen),
        _ => protocol,
    };
    let registry = beamr_core::map::get(a[3], atom("use_registry")) != Some(Term::FALSE);
    adopt(rt, p, os, (domain, kind, protocol), registry, false)
}

/// Makes `os` a socket of `p`'s: registered with the I/O thread, held by
/// a new reference, told to the socket registry when `registry`;
/// `{ok, SockRef}`.
fn adopt(
    rt: &Runtime,
    p: &mut Process,
    os: Socket,
    numbers: (i32, i32, i32),
    registry: bool,
    connected: bool,
) -> Result<Term, Exception> {
    let weak = rt.weak_self.get().cloned().ok_or_else(Exception::badarg)?;
    let forget = |ids| {
        SOCKETS.remove_ids(ids);
    };
    let object = SocketObject::new(weak, os, numbers, p.pid, registry, forget);
    if let Err(e) = object.register() {
        return Ok(os_error(p, &e));
    }
    object.lock().tracked.connected = connected;
    let reference = SOCKETS.insert_arc(p, Arc::clone(&object));
    if let Some(r) = reference.as_ref() {
        let _ = object.ids.set([r.ids[0], r.ids[1], r.ids[2]]);
    }
    p.owned.push(object.clone() as Arc<dyn OwnedResource>);
    if registry {
        object.tell_registry("add");
    }
    Ok(ok_tuple(p, reference))
}

/// `nif_bind(SockRef, SockAddr)`: `ok`, `{error, Posix}` or
/// `{invalid, sockaddr}`.
pub(super) fn bind(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let Some(to) = addr::decode(a[1]) else {
        return Ok(invalid(p, "sockaddr"));
    };
    with_open(p, a[0], |p, os, st| match os.bind(&to) {
        Ok(()) => {
            st.bound = true;
            ok()
        }
        Err(e) => os_error(p, &e),
    })
}

/// `nif_listen(SockRef, Backlog)`.
pub(super) fn listen(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let backlog = int(a[1])
        .map(|n| n.clamp(0, i64::from(i32::MAX)) as i32)
        .ok_or_else(Exception::badarg)?;
    with_open(p, a[0], |p, os, st| match os.listen(backlog) {
        Ok(()) => {
            st.listening = true;
            ok()
        }
        Err(e) => os_error(p, &e),
    })
}

/// `nif_accept(LSockRef, AccRef)`: `{ok, SockRef}` (the caller controls
/// it), `select` (a select message with `AccRef` follows when a
/// connection waits) or `{error, Posix | closed}`.
pub(super) fn accept(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let handle = handle_arg(a[1])?;
    let listener = match socket_arg(a[0])? {
        Arg::Socket(s) => s,
        Arg::Gone => return Ok(error(p, "closed")),
    };
    // The listener's lock is let go before the new socket is made (the
    // reference table is locked after a socket's lock nowhere else).
    let tried = listener.with_open(|os, st| {
        st.waits.used(handle);
        st.counters.acc_tries += 1;
        match os.accept() {
            Ok((s, _)) => {
                st.counters.acc_success += 1;
                Ok((s, (st.domain, st.kind, st.protocol), st.use_registry))
            }
            Err(e) => {
                if would_block(&e) {
                    st.counters.acc_waits += 1;
                    st.waits.wait(Waiter {
                        pid: p.pid,
                        handle,
                        op: Op::Accept,
                    });
                } else {
                    st.counters.acc_fails += 1;
                }
                Err(e)
            }
        }
    });
    match tried {
        None => Ok(error(p, "closed")),
        Some(Err(e)) if would_block(&e) => Ok(atom("select")),
        Some(Err(e)) => Ok(os_error(p, &e)),
        Some(Ok((accepted, numbers, registry))) => match accepted.set_nonblocking(true) {
            Ok(()) => adopt(rt, p, accepted, numbers, registry, true),
            Err(e) => Ok(os_error(p, &e)),
        },
    }
}

/// `nif_connect(SockRef, ConnRef, SockAddr)`: `ok`, `select` (a select
/// message with `ConnRef` follows when it is done; `nif_connect/1` then
/// says how it went), `{error, already}` while one is under way,
/// `{error, Posix}` or `{invalid, sockaddr}`.
pub(super) fn connect3(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let handle = handle_arg(a[1])?;
    let Some(to) = addr::decode(a[2]) else {
        return Ok(invalid(p, "sockaddr"));
    };
    with_open(p, a[0], |p, os, st| {
        if st.connecting() {
            return error(p, "already");
        }
        match os.connect(&to) {
            Ok(()) => {
                st.connected = true;
                ok()
            }
            Err(e) if would_block(&e) || e.raw_os_error() == Some(libc::EINPROGRESS) => {
                st.waits.wait(Waiter {
                    pid: p.pid,
                    handle,
                    op: Op::Connect,
                });
                atom("select")
            }
            Err(e) => os_error(p, &e),
        }
    })
}

/// `nif_connect(SockRef)`: how the connect that sent its select message
/// ended.
pub(super) fn connect1(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_open(p, a[0], |p, os, st| match os.take_error() {
        Ok(Some(e)) | Err(e) => os_error(p, &e),
        Ok(None) => match os.peer_addr() {
            Ok(_) => {
                st.connected = true;
                ok()
            }
            Err(e) => os_error(p, &e),
        },
    })
}

/// `nif_close(SockRef)`: `ok` (each waiting process gets an abort
/// message), or `{error, closed}` when it was closed already.
pub(super) fn close(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    with_socket(p, a[0], |p, s| {
        if !s.close() {
            return error(p, "closed");
        }
        p.owned.remove(&(s.clone() as Arc<dyn OwnedResource>));
        ok()
    })
}

/// `nif_finalize_close(SockRef)`: the reference denotes nothing from now
/// on.
pub(super) fn finalize_close(
    _rt: &Runtime,
    p: &mut Process,
    a: &[Term],
) -> Result<Term, Exception> {
    match socket_arg(a[0])? {
        Arg::Socket(_) => {
            SOCKETS.remove(a[0]);
            Ok(ok())
        }
        Arg::Gone => Ok(error(p, "closed")),
    }
}

/// `nif_shutdown(SockRef, read | write | read_write)`.
pub(super) fn shutdown(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let how = match a[1].as_atom().map(|a| a.name()) {
        Some("read") => Shutdown::Read,
        Some("write") => Shutdown::Write,
        Some("read_write") => Shutdown::Both,
        _ => return Err(Exception::badarg()),
    };
    with_open(p, a[0], |p, os, _| match os.shutdown(how) {
        Ok(()) => ok(),
        Err(e) => os_error(p, &e),
    })
}

/// `nif_sockname(SockRef)`: `{ok, SockAddr}`.
pub(super) fn sockname(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    address(p, a[0], Socket::local_addr)
}

/// `nif_peername(SockRef)`: `{ok, SockAddr}`.
pub(super) fn peername(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    address(p, a[0], Socket::peer_addr)
}

/// `{ok, SockAddr}` for the address `which` reads of socket `t`.
fn address(
    p: &mut Process,
    t: Term,
    which: fn(&Socket) -> std::io::Result<socket2::SockAddr>,
) -> Result<Term, Exception> {
    with_open(p, t, |p, os, _| match which(os) {
        Ok(at) => {
            let at = addr::encode(&mut p.heap, &at);
            ok_tuple(p, at)
        }
        Err(e) => os_error(p, &e),
    })
}

/// `nif_open(FD, Opts)`: an existing descriptor as a socket, which
/// beamr does not do.
pub(super) fn open2(_rt: &Runtime, p: &mut Process, _a: &[Term]) -> Result<Term, Exception> {
    Ok(error(p, "notsup"))
}
