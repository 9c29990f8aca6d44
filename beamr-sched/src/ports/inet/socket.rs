//! [`InetPort`]: one `tcp_inet` or `udp_inet` port, the driver behind a
//! `gen_tcp` socket. `prim_inet` drives it with `port_control/3`
//! requests ([`wire`](super::wire)) and `port_command/2` data; this file
//! holds its state and answers the requests, `stream.rs` moves its bytes.
//!
//! # Locks
//!
//! 1. `state` holds everything that changes. Requests, data and the I/O
//!    thread take it briefly and never wait under it.
//! 2. Messages are queued in `state.outbox` under that lock and sent by
//!    [`InetPort::flush`], which takes `delivery` first and the state
//!    lock only to take the queue: batches leave in the order they were
//!    queued. Sending to the owner takes the port's own lock, so nothing
//!    sends while holding `state`.
//! 3. `port_command` calls [`InetPort::send`] with the port's lock held;
//!    it answers its caller directly (no port lock needed) and leaves any
//!    message for the owner to the I/O thread ([`Poller::flush_later`]).
//! 4. [`InetPort::stop`] (the port exited) closes the socket and answers
//!    every waiting request `{error, closed}`, as inet_drv does.

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Instant;

use beamr_core::term::Term;
use mio::Interest;
use socket2::{Domain, SockRef, Socket, Type};

use super::conn::{encode_sockaddr, Conn, Dgram, Listener};
use super::options::{self, Active, Options};
use super::outbox::{self, Out, Reply};
use super::packet_parser::HttpState;
use super::poller::{poller, started, Poller};
use super::wire::{self, flag, req, Reader};
use crate::ports::errno_name;
use crate::process::{Payload, Signal};
use crate::runtime::{PortDriver, Runtime};
use crate::signals::PortEnd;

/// The OS socket in each of its lives.
pub(super) enum Sock {
    /// None yet (before `OPEN`), or closed.
    None,
    /// Opened, perhaps bound; not listening or connected.
    Fresh(Socket),
    /// Listening.
    Listener(Listener),
    /// Connected, or connecting.
    Stream(Conn),
    /// A UDP socket, bound (perhaps connected), registered for reading.
    Dgram(Dgram),
}

/// A request waiting for the socket: its caller, reference and deadline.
#[derive(Clone, Copy, Debug)]
pub(super) struct Waiter {
    pub caller: Term,
    pub reference: u16,
    pub deadline: Option<Instant>,
}

/// A sender waiting for its `{inet_reply, ...}` while the queue is
/// above the high watermark (erts suspends it at `port_command`).
pub(super) struct BlockedSend {
    pub caller: Term,
    /// OTP 26's monitor reference of the send, encoded.
    pub mref: Option<Vec<u8>>,
    /// When its `send_timeout` passes.
    pub deadline: Option<Instant>,
}

/// Counters `getstat` answers.
#[derive(Default)]
pub(super) struct Stats {
    pub recv_cnt: u64,
    pub recv_max: u64,
    pub recv_oct: u64,
    pub send_cnt: u64,
    pub send_max: u64,
    pub send_oct: u64,
}

/// The changing part of a socket.
pub(super) struct State {
    pub inet6: bool,
    /// A Unix-domain socket (`{local, Path}` addresses).
    pub local: bool,
    pub sock: Sock,
    pub token: Option<mio::Token>,
    pub bound: bool,
    /// The stream is connected (not only connecting).
    pub connected: bool,
    /// The socket was closed under its port (peer closed with
    /// `exit_on_close`, or an error): sends answer `closed`.
    pub closed: bool,
    /// The peer closed its side (seen by a read).
    pub eof: bool,
    /// The last read found nothing to read. mio's readiness is
    /// edge-triggered, so the I/O thread hears of the next bytes; until
    /// then a recv or `{active, once}` need not try a read (which would
    /// only fail, a system call per request on a keep-alive connection).
    pub drained: bool,
    pub connect: Option<Waiter>,
    pub acceptors: VecDeque<Waiter>,
    pub recv: Option<(Waiter, usize)>,
    pub opts: Options,
    /// Where an HTTP reader is: before a start line, or among headers
    /// (kept when the packet type changes, as inet_drv keeps it).
    pub http: HttpState,
    pub inbuf: Vec<u8>,
    pub outbuf: Vec<u8>,
    /// Senders waiting for the queue to drain.
    pub blocked: VecDeque<BlockedSend>,
    /// `shutdown(S, write)` waits for `outbuf` to empty.
    pub shutdown_write: bool,
    /// `subs_empty_out_q` subscribers.
    pub subscribers: Vec<Term>,
    pub next_ref: u16,
    pub stats: Stats,
    pub outbox: Vec<Out>,
    /// The distribution this socket carries, once `setnode/3` made it
    /// a distribution channel (see `dist_channel`).
    pub dist: Option<std::sync::Arc<dyn super::dist_channel::DistSink>>,
}

impl State {
    fn new() -> State {
        State {
            inet6: false,
            local: false,
            sock: Sock::None,
            token: None,
            bound: false,
            connected: false,
            closed: false,
            eof: false,
            drained: false,
            connect: None,
            acceptors: VecDeque::new(),
            recv: None,
            opts: Options::default(),
            http: HttpState::Start,
            inbuf: Vec::new(),
            outbuf: Vec::new(),
            blocked: VecDeque::new(),
            shutdown_write: false,
            subscribers: Vec::new(),
            next_ref: 0,
            stats: Stats::default(),
            outbox: Vec::new(),
            dist: None,
        }
    }

    /// The address a `BIND` or `CONNECT` request names: a path for a
    /// local (`{local, Path}`) socket, else an IP address and port; as
    /// `Err`, the error reply when it names none this socket can take.
    pub fn requested_address(&self, r: &mut Reader<'_>) -> Result<socket2::SockAddr, Vec<u8>> {
        match wire::local_path(r) {
            Some(Ok(path)) if self.local => {
                socket2::SockAddr::unix(std::ffi::OsStr::from_bytes(&path))
                    .map_err(|e| wire::error(io_error(&e)))
            }
            Some(_) => Err(wire::error("einval")),
            None if self.local => Err(wire::error("einval")),
            None => wire::address(r, self.inet6)
                .map(Into::into)
                .ok_or_else(|| wire::error("einval")),
        }
    }

    /// Counts one message delivered in an active mode: `once`, and the
    /// last of `{active, N}`, turn the socket passive (the latter with a
    /// `tcp_passive` or `udp_passive` message after it).
    pub fn count_active_delivery(&mut self) {
        match self.opts.active {
            Active::Once => self.opts.active = Active::Passive,
            Active::Count(1) => {
                self.opts.active = Active::Passive;
                self.outbox.push(Out::Passive);
            }
            Active::Count(n) => self.opts.active = Active::Count(n - 1),
            Active::Always | Active::Passive => {}
        }
    }

    /// A reference for a new request.
    pub fn reference(&mut self) -> u16 {
        self.next_ref = self.next_ref.wrapping_add(1);
        self.next_ref
    }

    /// The OS socket, for options.
    pub fn sock_ref(&self) -> Option<SockRef<'_>> {
        match &self.sock {
            Sock::None => None,
            Sock::Fresh(s) => Some(SockRef::from(s)),
            Sock::Listener(l) => Some(SockRef::from(l)),
            Sock::Stream(s) => Some(SockRef::from(s)),
            Sock::Dgram(s) => Some(SockRef::from(s)),
        }
    }

    /// The socket's own address, encoded as a sockname reply.
    pub fn name_reply(&self) -> Vec<u8> {
        let name = self.sock_ref().map(|s| s.local_addr());
        match name {
            None => wire::error("einval"),
            Some(Err(e)) => wire::error(io_error(&e)),
            Some(Ok(addr)) => match encode_sockaddr(&addr) {
                Some(bytes) => wire::ok(&bytes),
                None => wire::error("eafnosupport"),
            },
        }
    }

    /// The socket's own address.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        let sock = self
            .sock_ref()
            .ok_or_else(|| std::io::Error::from_raw_os_error(libc::EINVAL))?;
        sock.local_addr()?
            .as_socket()
            .ok_or_else(|| std::io::Error::from_raw_os_error(libc::EINVAL))
    }
}

/// One inet port.
pub struct InetPort {
    /// The port's identifier.
    pub(super) id: Term,
    pub(super) rt: Weak<Runtime>,
    /// `udp_inet` (else `tcp_inet`).
    pub(super) udp: bool,
    pub(super) this: Weak<InetPort>,
    pub(super) state: Mutex<State>,
    delivery: Mutex<()>,
    stopped: AtomicBool,
}

/// An error reply naming the errno of `e`.
pub(super) fn io_error(e: &std::io::Error) -> &'static str {
    match e.raw_os_error() {
        Some(n) => errno_name(n),
        None if e.kind() == std::io::ErrorKind::TimedOut => "timeout",
        None => "einval",
    }
}

impl InetPort {
    /// A port `id` of `rt` with no socket yet.
    pub fn new(id: Term, rt: Weak<Runtime>, udp: bool) -> Arc<InetPort> {
        Arc::new_cyclic(|this| InetPort {
            id,
            rt,
            udp,
            this: this.clone(),
            state: Mutex::new(State::new()),
            delivery: Mutex::new(()),
            stopped: AtomicBool::new(false),
        })
    }

    /// A port for a connection a listener accepted, with the listener's
    /// options (as inet_drv copies them). It waits for nothing until
    /// [`InetPort::register`]: its port must be in the table first, or
    /// data an active socket read at once would have no owner to go to.
    pub(super) fn accepted(
        id: Term,
        rt: Weak<Runtime>,
        stream: Conn,
        opts: Options,
        inet6: bool,
    ) -> Arc<InetPort> {
        let port = InetPort::new(id, rt, false);
        {
            let mut st = port.lock();
            st.inet6 = inet6;
            st.local = matches!(stream, Conn::Unix(_));
            st.opts = Options {
                pending: Vec::new(),
                ..opts
            };
            st.sock = Sock::Stream(stream);
            st.bound = true;
            st.connected = true;
        }
        port
    }

    /// Registers an accepted connection's stream with the poller.
    pub(super) fn register(&self) -> std::io::Result<()> {
        let poller = poller().ok_or_else(|| std::io::Error::other("no poller"))?;
        let mut st = self.lock();
        let Sock::Stream(stream) = &mut st.sock else {
            return Ok(());
        };
        let interest = Interest::READABLE | Interest::WRITABLE;
        let token = poller.register(stream, interest, self.this.clone())?;
        st.token = Some(token);
        Ok(())
    }

    pub(super) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sends the queued messages (see the module's protocol).
    pub fn flush(&self) {
        let Some(rt) = self.rt.upgrade() else {
            return;
        };
        let _order = self.delivery.lock().unwrap_or_else(|e| e.into_inner());
        let (outs, deliver_term, dist) = {
            let mut st = self.lock();
            (
                std::mem::take(&mut st.outbox),
                st.opts.deliver_term,
                st.dist.clone(),
            )
        };
        if outs.is_empty() {
            return;
        }
        // A socket that exits after these messages leaves the port table
        // before it sends them, so that its owner, once it has
        // `tcp_closed`, finds the port gone (`port_info/2` answers
        // `undefined`), as on erts, where both happen in one driver call.
        let exits = dist.is_none() && outs.iter().any(|out| matches!(out, Out::Exit));
        let port = if exits {
            rt.ports.remove(self.id)
        } else {
            rt.ports.get(self.id)
        };
        for out in outs {
            match &out {
                Out::Data(d) if dist.is_some() => {
                    if let Some(sink) = &dist {
                        sink.packet(&rt, &d.bytes);
                    }
                }
                Out::Closed | Out::Error(_) if dist.is_some() => {}
                Out::Exit if dist.is_some() => {
                    // A distribution port exits so that net_kernel, linked
                    // to it, sees the node go (see `dist_channel`).
                    self.dist_closed(&rt, "connection_closed");
                    rt.port_exit(self.id, super::dist_channel::closed_reason(), None);
                }
                Out::Async {
                    to,
                    reference,
                    reply,
                } => {
                    let message =
                        Payload::build(|h| outbox::async_message(h, self.id, *reference, reply));
                    rt.send_signal(*to, Signal::Message(message, None));
                }
                Out::SendReply { to, mref, status } => {
                    let message = Payload::build(|h| {
                        outbox::send_reply_message(h, self.id, *status, mref.as_deref())
                    });
                    rt.send_signal(*to, Signal::Message(message, None));
                }
                Out::EmptyOutQ(to) => {
                    let message = Payload::build(|h| {
                        let tag = beamr_core::atom::Atom::new("empty_out_q").expect("atom");
                        h.tuple(&[Term::atom(tag), self.id])
                    });
                    rt.send_signal(*to, Signal::Message(message, None));
                }
                Out::Exit => {
                    // inet_drv's port leaves its links silently: no
                    // `'EXIT'` reaches even a process trapping exits.
                    if let Some(port) = &port {
                        for pid in std::mem::take(&mut port.state().links) {
                            rt.send_signal(pid, Signal::Unlink { from: self.id });
                        }
                    }
                    if let Some(port) = &port {
                        let normal = Term::atom(beamr_core::atom::Atom::NORMAL);
                        rt.end_port(port, normal, None, PortEnd::Own);
                    }
                }
                _ => {
                    let Some(port) = &port else { continue };
                    let bytes = match &out {
                        Out::Data(d) => d.bytes.len(),
                        Out::Parsed(parsed) => parsed.packet.len(),
                        Out::Datagram(d) => d.data.bytes.len(),
                        _ => 0,
                    };
                    rt.port_deliver(port, bytes, |h| {
                        outbox::owner_message(h, self.id, &out, deliver_term, self.udp)
                            .unwrap_or(Term::NIL)
                    });
                }
            }
        }
    }

    /// Answers request `request` (less the magic number) from `caller`.
    fn request(&self, caller: Term, request: u32, data: &[u8]) -> Vec<u8> {
        let mut st = self.lock();
        let mut r = Reader::new(data);
        match request {
            req::OPEN => self.open_socket(&mut st, &mut r),
            req::CLOSE => {
                self.close_socket(&mut st);
                wire::ok(&[])
            }
            req::BIND => self.bind(&mut st, &mut r),
            req::LISTEN => self.listen(&mut st, &mut r),
            req::CONNECT if self.udp => self.dgram_connect(&mut st, caller, &mut r),
            req::CONNECT => self.connect(&mut st, caller, &mut r),
            req::ACCEPT => self.accept(&mut st, caller, &mut r),
            req::PACKET_RECV if self.udp => self.dgram_recv(&mut st, caller, &mut r),
            req::RECV => self.recv(&mut st, caller, &mut r),
            req::PEER => match &st.sock {
                Sock::Dgram(s) => match SockRef::from(s).peer_addr() {
                    Ok(addr) => match encode_sockaddr(&addr) {
                        Some(bytes) => wire::ok(&bytes),
                        None => wire::error("eafnosupport"),
                    },
                    Err(e) => wire::error(io_error(&e)),
                },
                Sock::Stream(s) if st.connected => match SockRef::from(s).peer_addr() {
                    Ok(addr) => match encode_sockaddr(&addr) {
                        Some(bytes) => wire::ok(&bytes),
                        None => wire::error("eafnosupport"),
                    },
                    Err(e) => wire::error(io_error(&e)),
                },
                _ => wire::error("enotconn"),
            },
            req::NAME => st.name_reply(),
            req::SETOPTS => self.setopts(&mut st, data),
            req::GETOPTS => {
                let mut out = Vec::new();
                for &opt in data {
                    match st.opts.get(opt, st.sock_ref()) {
                        Ok(bytes) => out.extend_from_slice(&bytes),
                        // A Unix-domain socket has no TCP options (`nodelay`,
                        // `tos`): inet_drv leaves out what the OS refuses.
                        Err(_) if st.local && options::is_socket_option(opt) => {}
                        Err(e) => return wire::error(e),
                    }
                }
                wire::ok(&out)
            }
            req::GETSTAT => getstat(&st, data),
            req::GETHOSTNAME => match nix::unistd::gethostname() {
                Ok(name) => wire::ok(name.to_string_lossy().as_bytes()),
                Err(e) => wire::error(errno_name(e as i32)),
            },
            req::GETFD => {
                use std::os::fd::AsRawFd;
                match st.sock_ref() {
                    Some(s) => wire::ok(&(s.as_raw_fd() as u32).to_be_bytes()),
                    None => wire::error("einval"),
                }
            }
            req::GETTYPE => {
                let family = if st.inet6 {
                    wire::AF_INET6
                } else {
                    wire::AF_INET
                };
                let kind = if self.udp {
                    wire::TYPE_DGRAM
                } else {
                    wire::TYPE_STREAM
                };
                let mut out = u32::from(family).to_be_bytes().to_vec();
                out.extend_from_slice(&u32::from(kind).to_be_bytes());
                wire::ok(&out)
            }
            req::GETSTATUS => wire::ok(&status(&st).to_be_bytes()),
            req::GETIFADDRS => match super::ifaddrs::getifaddrs_reply() {
                Ok(bytes) => wire::ok(&bytes),
                Err(e) => wire::error(e),
            },
            req::IFGET => match super::ifaddrs::ifget_reply(data) {
                Ok(bytes) => wire::ok(&bytes),
                Err(e) => wire::error(e),
            },
            req::GETIFLIST => match super::ifaddrs::getiflist_reply() {
                Ok(bytes) => wire::ok(&bytes),
                Err(e) => wire::error(e),
            },
            req::SUBSCRIBE => {
                let mut out = Vec::new();
                for &what in data {
                    if what != 1 {
                        return wire::error("einval");
                    }
                    let queued = st.outbuf.len() as u32;
                    if queued > 0 && !st.subscribers.contains(&caller) {
                        st.subscribers.push(caller);
                    }
                    out.push(1);
                    out.extend_from_slice(&queued.to_be_bytes());
                }
                wire::ok(&out)
            }
            req::IGNOREFD => wire::ok(&[]),
            req::UNRECV => {
                let mut buf = data.to_vec();
                buf.append(&mut st.inbuf);
                st.inbuf = buf;
                wire::ok(&[])
            }
            req::SHUTDOWN => self.shutdown(&mut st, &mut r),
            _ => wire::error("enotsup"),
        }
    }

    /// `OPEN`: family, type, protocol.
    fn open_socket(&self, st: &mut State, r: &mut Reader<'_>) -> Vec<u8> {
        let (Some(family), Some(kind)) = (r.u8(), r.u8()) else {
            return wire::error("einval");
        };
        if !matches!(st.sock, Sock::None) {
            return wire::error("ebusy");
        }
        let domain = match family {
            wire::AF_INET => Domain::IPV4,
            wire::AF_INET6 => Domain::IPV6,
            wire::AF_LOCAL => Domain::UNIX,
            _ => return wire::error("eafnosupport"),
        };
        let kind = match (kind, self.udp) {
            (wire::TYPE_STREAM, false) => Type::STREAM,
            (wire::TYPE_DGRAM, true) => Type::DGRAM,
            _ => return wire::error("eprotonosupport"),
        };
        let socket = match Socket::new(domain, kind, None) {
            Ok(s) => s,
            Err(e) => return wire::error(io_error(&e)),
        };
        if let Err(e) = socket.set_nonblocking(true) {
            return wire::error(io_error(&e));
        }
        for (opt, value) in std::mem::take(&mut st.opts.pending) {
            if let Err(e) = options::set_socket_option(&SockRef::from(&socket), opt, value) {
                return wire::error(e);
            }
        }
        st.inet6 = family == wire::AF_INET6;
        st.local = family == wire::AF_LOCAL;
        st.sock = Sock::Fresh(socket);
        wire::ok(&[])
    }

    /// Closes the OS socket (the port stays).
    pub(super) fn close_socket(&self, st: &mut State) {
        self.answer_blocked(st, Err("closed"));
        let sock = std::mem::replace(&mut st.sock, Sock::None);
        if let (Some(token), Some(poller)) = (st.token.take(), started()) {
            deregister(poller, sock, token);
        }
        st.connected = false;
        st.closed = true;
    }

    /// `BIND`: an address; replies the port bound.
    fn bind(&self, st: &mut State, r: &mut Reader<'_>) -> Vec<u8> {
        let addr = match st.requested_address(r) {
            Ok(addr) => addr,
            Err(reply) => return reply,
        };
        let Sock::Fresh(socket) = &st.sock else {
            return wire::error("einval");
        };
        if st.bound {
            return wire::error("einval");
        }
        if let Err(e) = socket.bind(&addr) {
            return wire::error(io_error(&e));
        }
        st.bound = true;
        if self.udp {
            if let Err(e) = self.make_dgram(st) {
                return wire::error(io_error(&e));
            }
        }
        if st.local {
            // A Unix-domain socket has no port: prim_inet reads 0.
            return wire::ok(&[0, 0]);
        }
        match st.local_addr() {
            Ok(bound) => wire::ok(&bound.port().to_be_bytes()),
            Err(e) => wire::error(io_error(&e)),
        }
    }

    /// `LISTEN`: a backlog.
    fn listen(&self, st: &mut State, r: &mut Reader<'_>) -> Vec<u8> {
        let Some(backlog) = r.i16() else {
            return wire::error("einval");
        };
        if self.udp {
            return wire::error("eopnotsupp");
        }
        let Sock::Fresh(socket) = std::mem::replace(&mut st.sock, Sock::None) else {
            return wire::error("einval");
        };
        if let Err(e) = socket.listen(i32::from(backlog.max(0))) {
            st.sock = Sock::Fresh(socket);
            return wire::error(io_error(&e));
        }
        let mut listener = Listener::from_socket(socket, st.local);
        let Some(poller) = poller() else {
            return wire::error("enotsup");
        };
        match poller.register(&mut listener, Interest::READABLE, self.this.clone()) {
            Ok(token) => st.token = Some(token),
            Err(e) => return wire::error(io_error(&e)),
        }
        st.bound = true;
        st.sock = Sock::Listener(listener);
        wire::ok(&[])
    }

    /// `SETOPTS`.
    fn setopts(&self, st: &mut State, data: &[u8]) -> Vec<u8> {
        let opts = match options::parse(data) {
            Ok(opts) => opts,
            Err(e) => return wire::error(e),
        };
        // The socket delivers once every option is set (a new `packet`
        // type applies to what an `active` in the same call delivers).
        let mut activated = false;
        let mut failed = None;
        for (opt, value) in opts {
            let sock = match &st.sock {
                Sock::None => None,
                Sock::Fresh(s) => Some(SockRef::from(s)),
                Sock::Listener(l) => Some(SockRef::from(l)),
                Sock::Stream(s) => Some(SockRef::from(s)),
                Sock::Dgram(s) => Some(SockRef::from(s)),
            };
            let local_os_option = st.local && options::is_socket_option(opt);
            match st.opts.set(opt, value, sock) {
                Ok(changed) => {
                    if changed.passive_message {
                        st.outbox.push(Out::Passive);
                    }
                    activated |= changed.active;
                }
                // ... and sets them as if it could.
                Err(_) if local_os_option => {}
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        if activated {
            self.pump(st);
        }
        match failed {
            Some(e) => wire::error(e),
            None => wire::ok(&[]),
        }
    }

    /// `SHUTDOWN`: 0 read, 1 write, 2 both.
    fn shutdown(&self, st: &mut State, r: &mut Reader<'_>) -> Vec<u8> {
        let how = match r.u8() {
            Some(0) => std::net::Shutdown::Read,
            Some(1) => std::net::Shutdown::Write,
            Some(2) => std::net::Shutdown::Both,
            _ => return wire::error("einval"),
        };
        let Sock::Stream(stream) = &st.sock else {
            return wire::error("enotconn");
        };
        if !st.connected {
            return wire::error("enotconn");
        }
        if how != std::net::Shutdown::Read && !st.outbuf.is_empty() {
            // Written once the queue empties, as inet_drv delays it.
            st.shutdown_write = true;
            if how == std::net::Shutdown::Write {
                return wire::ok(&[]);
            }
            return match SockRef::from(stream).shutdown(std::net::Shutdown::Read) {
                Ok(()) => wire::ok(&[]),
                Err(e) => wire::error(io_error(&e)),
            };
        }
        match SockRef::from(stream).shutdown(how) {
            Ok(()) => wire::ok(&[]),
            Err(e) => wire::error(io_error(&e)),
        }
    }

    /// Deadline `at` for a request of this socket.
    pub(super) fn add_deadline(&self, st: &State, at: Option<Instant>) {
        if let (Some(at), Some(token), Some(poller)) = (at, st.token, started()) {
            poller.deadline(at, token);
        }
    }

    /// Answers every waiting request `{error, Reason}`.
    pub(super) fn fail_waiters(&self, st: &mut State, reason: &'static str) {
        let mut waiters: Vec<Waiter> = st.acceptors.drain(..).collect();
        waiters.extend(st.connect.take());
        waiters.extend(st.recv.take().map(|(w, _)| w));
        for w in waiters {
            st.outbox.push(Out::Async {
                to: w.caller,
                reference: w.reference,
                reply: Reply::Error(reason),
            });
        }
    }
}

/// Takes `sock` out of the poller.
fn deregister(poller: &Poller, sock: Sock, token: mio::Token) {
    match sock {
        Sock::Listener(mut l) => poller.deregister(&mut l, token),
        Sock::Stream(mut s) => poller.deregister(&mut s, token),
        Sock::Dgram(mut s) => poller.deregister(&mut s, token),
        Sock::Fresh(_) | Sock::None => {}
    }
}

/// The `INET_F_*` flags of the socket, as inet_drv's states combine
/// them: a listening, connecting or connected socket is not also
/// `bound`.
fn status(st: &State) -> u32 {
    if matches!(st.sock, Sock::None) {
        return 0;
    }
    let mut flags = flag::OPEN;
    if matches!(st.sock, Sock::Listener(_)) {
        flags |= flag::LISTEN;
        if !st.acceptors.is_empty() {
            flags |= flag::ACC;
        }
    } else if st.connected {
        flags |= flag::ACTIVE;
    } else if st.connect.is_some() {
        flags |= flag::CON;
    } else if st.bound {
        flags |= flag::BOUND;
    }
    flags
}

/// `GETSTAT`: each requested counter, 32 bits (64 for the octet counts).
fn getstat(st: &State, data: &[u8]) -> Vec<u8> {
    let s = &st.stats;
    let avg = |total: u64, count: u64| total.checked_div(count).unwrap_or(0);
    let mut out = Vec::new();
    for &stat in data {
        out.push(stat);
        let value = match stat {
            1 => s.recv_cnt,
            2 => s.recv_max,
            3 => avg(s.recv_oct, s.recv_cnt),
            4 => 0,
            5 => s.send_cnt,
            6 => s.send_max,
            7 => avg(s.send_oct, s.send_cnt),
            8 => st.outbuf.len() as u64,
            9 => {
                out.extend_from_slice(&s.recv_oct.to_be_bytes());
                continue;
            }
            10 => {
                out.extend_from_slice(&s.send_oct.to_be_bytes());
                continue;
            }
            _ => return wire::error("einval"),
        };
        out.extend_from_slice(&(value as u32).to_be_bytes());
    }
    wire::ok(&out)
}

impl PortDriver for InetPort {
    fn output(&self, bytes: &[u8]) {
        self.send(Term::NIL, bytes);
    }

    fn as_any(&self) -> Option<&dyn std::any::Any> {
        Some(self)
    }

    fn control(&self, command: u32, data: &[u8]) -> Option<(Vec<u8>, bool)> {
        self.control_by(Term::NIL, command, data)
    }

    /// A distribution socket's end reason is the node's `nodedown_reason`:
    /// an exit signal's (`disconnect` from `erlang:disconnect_node/1`),
    /// else `connection_closed`.
    fn stop(&self, reason: Term) {
        if self.stopped.swap(true, Ordering::AcqRel) {
            return;
        }
        let Some(rt) = self.rt.upgrade() else {
            return;
        };
        let why = reason
            .as_atom()
            .filter(|a| *a != beamr_core::atom::Atom::NORMAL)
            .map_or("connection_closed", |a| a.name());
        self.dist_closed(&rt, why);
        let mut st = self.lock();
        self.fail_waiters(&mut st, "closed");
        self.close_socket(&mut st);
        // Only the answers to callers leave now: the port is gone, so
        // its owner gets nothing more.
        for out in std::mem::take(&mut st.outbox) {
            let (to, message) = match out {
                Out::Async {
                    to,
                    reference,
                    reply,
                } => (
                    to,
                    Payload::build(|h| outbox::async_message(h, self.id, reference, &reply)),
                ),
                Out::SendReply { to, mref, status } => (
                    to,
                    Payload::build(|h| {
                        outbox::send_reply_message(h, self.id, status, mref.as_deref())
                    }),
                ),
                _ => continue,
            };
            rt.send_signal(to, Signal::Message(message, None));
        }
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }

    fn command(&self, caller: Term, bytes: &[u8]) -> Vec<(usize, Payload)> {
        self.send(caller, bytes);
        Vec::new()
    }

    fn control_by(&self, caller: Term, command: u32, data: &[u8]) -> Option<(Vec<u8>, bool)> {
        let reply = match command.checked_sub(wire::CONTROL_MAGIC) {
            Some(request) => self.request(caller, request, data),
            // No request of prim_inet's: inet_drv's answer to an unknown one.
            None => wire::error("exbadport"),
        };
        self.flush();
        Some((reply, false))
    }
}
