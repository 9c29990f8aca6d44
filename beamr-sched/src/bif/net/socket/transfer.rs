//! Moving bytes: `nif_send/4`, `nif_sendto/5`, `nif_recv/4`,
//! `nif_recvfrom/4`, with erts's answers (`prim_socket` and `socket` turn
//! them into what the caller sees):
//!
//! ```text
//! send    ok | select | {select, Written} | {error, Posix | closed}
//! recv    {ok, Bin}        got Length bytes, or what there was for Length 0
//!         {select, Bin}    fewer than Length on a stream; more will be told
//!         select           nothing yet; a select message follows
//!         ok               nothing yet, and the handle was `zero` (a poll)
//!         {error, closed}  the peer closed a stream
//! ```

use std::os::fd::AsRawFd;

use beamr_core::term::Term;
use nix::sys::socket::{MsgFlags, SockaddrStorage};
use socket2::SockAddr;

use super::object::{Op, Tracked, Waiter};
use super::{addr, error, int, invalid, ok, ok_tuple, os_error, with_open, would_block};
use crate::bif::common::atoms::atom;
use crate::bif::erlang::binaries::binary_bytes;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The message flags argument (already a number), with `MSG_NOSIGNAL`
/// so a closed peer is `epipe`, not a signal.
fn flags_arg(t: Term) -> Result<i32, Exception> {
    let n = int(t)
        .and_then(|n| i32::try_from(n).ok())
        .ok_or_else(Exception::badarg)?;
    Ok(n | libc::MSG_NOSIGNAL)
}

/// A send or receive handle: a reference, or `zero` for a poll that must
/// not wait.
#[derive(Clone, Copy)]
enum Handle {
    Ref([u32; 3]),
    Zero,
}

fn handle_or_zero(t: Term) -> Result<Handle, Exception> {
    if t == atom("zero") {
        return Ok(Handle::Zero);
    }
    super::handle_arg(t).map(Handle::Ref)
}

/// Sends `bytes` on socket `t` (to `to`, if given) for `p`, as much as
/// the OS takes now.
fn send_on(
    p: &mut Process,
    t: Term,
    bytes: &[u8],
    to: Option<&SockAddr>,
    flags: i32,
    handle: Handle,
) -> Result<Term, Exception> {
    with_open(p, t, |p, os, st| {
        send_now(p, os, st, bytes, to, flags, handle)
    })
}

/// [`send_on`] with the socket open and locked.
fn send_now(
    p: &mut Process,
    os: &socket2::Socket,
    st: &mut Tracked,
    bytes: &[u8],
    to: Option<&SockAddr>,
    flags: i32,
    handle: Handle,
) -> Term {
    if let Handle::Ref(h) = handle {
        st.waits.used(h);
    }
    let stream = st.kind == libc::SOCK_STREAM;
    st.counters.write_tries += 1;
    let mut written = 0;
    loop {
        let sent = match to {
            Some(to) => os.send_to_with_flags(&bytes[written..], to, flags),
            None => os.send_with_flags(&bytes[written..], flags),
        };
        match sent {
            Ok(n) => {
                written += n;
                if written >= bytes.len() || !stream || n == 0 {
                    st.counters.wrote(written);
                    return ok();
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if would_block(&e) => {
                let Handle::Ref(handle) = handle else {
                    return error(p, "timeout");
                };
                st.counters.write_waits += 1;
                st.waits.wait(Waiter {
                    pid: p.pid,
                    handle,
                    op: Op::Send,
                });
                return if written == 0 {
                    atom("select")
                } else {
                    p.heap
                        .tuple(&[atom("select"), super::small(written as i64)])
                };
            }
            Err(e) => {
                st.counters.write_fails += 1;
                return os_error(p, &e);
            }
        }
    }
}

/// `nif_send(SockRef, Bin, Flags, SendRef)`.
pub(super) fn send(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[1])?.into_owned();
    let flags = flags_arg(a[2])?;
    let handle = handle_or_zero(a[3])?;
    send_on(p, a[0], &bytes, None, flags, handle)
}

/// `nif_sendv(SockRef, IOV, SendRef)` (OTP 26 on): the binaries of
/// `IOV` in one send, with `nif_send/4`'s answers.
pub(super) fn sendv(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let parts = a[1].list_to_vec().ok_or_else(Exception::badarg)?;
    let mut bytes = Vec::new();
    for part in parts {
        bytes.extend_from_slice(&binary_bytes(&part)?);
    }
    let handle = handle_or_zero(a[2])?;
    send_on(p, a[0], &bytes, None, libc::MSG_NOSIGNAL, handle)
}

/// `nif_sendto(SockRef, Bin, Dest, Flags, SendRef)`; `{invalid,
/// sockaddr}` for a destination that is not an address.
pub(super) fn sendto(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let bytes = binary_bytes(&a[1])?.into_owned();
    let flags = flags_arg(a[3])?;
    let handle = handle_or_zero(a[4])?;
    let Some(to) = addr::decode(a[2]) else {
        return Ok(invalid(p, "sockaddr"));
    };
    send_on(p, a[0], &bytes, Some(&to), flags, handle)
}

/// The most one receive reads: a larger length (or `{otp, rcvbuf}`) is
/// read in parts of this size, each answered as a part is, rather than
/// allocated whole up front.
const MAX_READ: usize = 1 << 23;

/// The length argument: bytes wanted, 0 for "what there is".
fn length_arg(t: Term) -> Result<usize, Exception> {
    int(t)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(Exception::badarg)
}

/// Whether a poll (the `zero` handle) that finds nothing says `timeout`
/// (OTP 26 on, with `{timeout, Bin}` for part of a length) rather than
/// `ok` (and `{ok, Bin}`).
fn polls_time_out() -> bool {
    beamr_core::release::otp_release() >= 26
}

/// Whether a stream `recv` of a length with only part of it there
/// leaves the part unread and answers `select` (OTP 27's NIF), rather
/// than taking it and answering `{select, Part}`.
fn waits_for_whole_length() -> bool {
    beamr_core::release::otp_release() == 27
}

/// A receive on `s` found nothing: wait (`select`) or, for a poll, `ok`
/// (`timeout` from OTP 26 on).
fn nothing_yet(p: &mut Process, waits: &mut super::object::Waits, handle: Handle) -> Term {
    match handle {
        Handle::Zero if polls_time_out() => atom("timeout"),
        Handle::Zero => ok(),
        Handle::Ref(handle) => {
            waits.wait(Waiter {
                pid: p.pid,
                handle,
                op: Op::Recv,
            });
            atom("select")
        }
    }
}

/// `nif_recv(SockRef, Length, Flags, RecvRef)`.
pub(super) fn recv(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let length = length_arg(a[1])?;
    let flags = MsgFlags::from_bits_retain(flags_arg(a[2])? & !libc::MSG_NOSIGNAL);
    let handle = handle_or_zero(a[3])?;
    receive(p, a[0], length, handle, |p, st, fd, mut buf, stream| {
        let whole = stream && length > 0 && matches!(handle, Handle::Ref(_));
        if whole && waits_for_whole_length() {
            match read(fd, &mut buf, flags | MsgFlags::MSG_PEEK) {
                Ok(n) if n > 0 && n < length.min(MAX_READ) => {
                    return nothing_yet(p, &mut st.waits, handle)
                }
                _ => {}
            }
        }
        st.counters.read_tries += 1;
        match read(fd, &mut buf, flags) {
            Ok(0) if stream && !buf.is_empty() => {
                st.counters.read_fails += 1;
                error(p, "closed")
            }
            Ok(n) => {
                st.counters.read(n);
                let bin = p.heap.binary(&buf[..n]);
                let partial = n < length && stream;
                match handle {
                    Handle::Ref(h) if partial => {
                        st.waits.wait(Waiter {
                            pid: p.pid,
                            handle: h,
                            op: Op::Recv,
                        });
                        p.heap.tuple(&[atom("select"), bin])
                    }
                    Handle::Zero if partial && polls_time_out() => {
                        p.heap.tuple(&[atom("timeout"), bin])
                    }
                    _ => ok_tuple(p, bin),
                }
            }
            Err(e) => read_failed(p, st, handle, e),
        }
    })
}

/// Runs the receive `f` on socket `t` for `p` with the socket's state
/// (open, the handle used), its descriptor, a buffer for `length` (0:
/// `{otp, rcvbuf}`; at most [`MAX_READ`]) and whether it is a stream.
fn receive(
    p: &mut Process,
    t: Term,
    length: usize,
    handle: Handle,
    f: impl FnOnce(&mut Process, &mut Tracked, i32, Vec<u8>, bool) -> Term,
) -> Result<Term, Exception> {
    with_open(p, t, |p, os, st| {
        let fd = os.as_raw_fd();
        if let Handle::Ref(h) = handle {
            st.waits.used(h);
        }
        let stream = st.kind == libc::SOCK_STREAM;
        let want = if length == 0 { st.rcvbuf } else { length };
        let buf = vec![0u8; want.min(MAX_READ)];
        f(p, st, fd, buf, stream)
    })
}

/// A receive failed with `e`: wait, poll's answer, or the error.
fn read_failed(p: &mut Process, st: &mut Tracked, handle: Handle, e: nix::errno::Errno) -> Term {
    if e == nix::errno::Errno::EAGAIN {
        st.counters.read_waits += 1;
        return nothing_yet(p, &mut st.waits, handle);
    }
    st.counters.read_fails += 1;
    os_error(p, &std::io::Error::from_raw_os_error(e as i32))
}

/// One `recv(2)`, retried when a signal interrupts it.
fn read(fd: i32, buf: &mut [u8], flags: MsgFlags) -> nix::Result<usize> {
    loop {
        match nix::sys::socket::recv(fd, buf, flags) {
            Err(nix::errno::Errno::EINTR) => continue,
            other => return other,
        }
    }
}

/// `nif_recvfrom(SockRef, BufSz, Flags, RecvRef)`: `{ok, {Source, Bin}}`.
pub(super) fn recvfrom(_rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let length = length_arg(a[1])?;
    // recvfrom(2) with flags (a peek) is not done here.
    if flags_arg(a[2])? != libc::MSG_NOSIGNAL {
        return Ok(error(p, "notsup"));
    }
    let handle = handle_or_zero(a[3])?;
    receive(p, a[0], length, handle, |p, st, fd, mut buf, stream| {
        st.counters.read_tries += 1;
        let got = loop {
            match recv_from(fd, &mut buf) {
                Err(nix::errno::Errno::EINTR) => continue,
                other => break other,
            }
        };
        match got {
            Ok((0, _)) if stream => {
                st.counters.read_fails += 1;
                error(p, "closed")
            }
            Ok((n, from)) => {
                st.counters.read(n);
                let bin = p.heap.binary(&buf[..n]);
                let source = match from {
                    Some(from) => addr::encode(&mut p.heap, &from),
                    None => atom("undefined"),
                };
                let pair = p.heap.tuple(&[source, bin]);
                ok_tuple(p, pair)
            }
            Err(e) => read_failed(p, st, handle, e),
        }
    })
}

/// One `recvfrom(2)`: the bytes read and where they came from.
fn recv_from(fd: i32, buf: &mut [u8]) -> nix::Result<(usize, Option<SockAddr>)> {
    let (n, from) = nix::sys::socket::recvfrom::<SockaddrStorage>(fd, buf)?;
    Ok((n, from.and_then(|a| to_socket2(&a))))
}

/// nix's address as socket2's.
fn to_socket2(a: &SockaddrStorage) -> Option<SockAddr> {
    if let Some(v4) = a.as_sockaddr_in() {
        return Some(std::net::SocketAddr::V4((*v4).into()).into());
    }
    if let Some(v6) = a.as_sockaddr_in6() {
        return Some(std::net::SocketAddr::V6((*v6).into()).into());
    }
    if let Some(unix) = a.as_unix_addr() {
        if let Some(path) = unix.path() {
            return SockAddr::unix(path).ok();
        }
        if let Some(name) = unix.as_abstract() {
            use std::os::unix::ffi::OsStrExt;
            let mut bytes = vec![0u8];
            bytes.extend_from_slice(name);
            return SockAddr::unix(std::ffi::OsStr::from_bytes(&bytes)).ok();
        }
        return SockAddr::unix("").ok();
    }
    None
}
