//! Moving a TCP socket's bytes: connecting, accepting, reading into the
//! receive buffer and cutting packets out of it for a waiting `recv` or
//! an active owner, writing what `port_command` gives, and the end of the
//! connection, as inet_drv does each:
//!
//! 1. A request that can finish at once does; else it waits in the
//!    socket (one recv, one connect, a queue of acceptors) until the I/O
//!    thread sees the socket ready or its deadline passes
//!    (`{error, timeout}`).
//! 2. The socket reads only while someone wants data (a waiting recv, or
//!    an active mode), so a passive socket leaves data in the OS.
//! 3. When the peer closes: a waiting recv gets `{error, closed}`, an
//!    active owner `{tcp_closed, S}`; with `exit_on_close` (the default)
//!    the socket is then closed (later sends: `{error, closed}`, recvs:
//!    `{error, enotconn}`), and an active socket's port exits.
//! 4. Writes go out at once when the OS takes them, else wait in
//!    `outbuf` for the socket to become writable; the caller's reply
//!    (`{inet_reply, S, ok}`) does not wait.

use std::io::{Read, Write};
use std::ops::Range;
use std::time::{Duration, Instant};

use beamr_core::term::Term;

use super::conn::Conn;
use super::options::code;
use super::options::Active;
use super::outbox::{Data, Out, Parsed, Reply};
use super::packet::{cut, frame, Cut};
use super::packet_parser::{decode, Limits, PacketType};
use super::poller::{poller, started};
use super::socket::{io_error, BlockedSend, InetPort, Sock, State, Waiter};
use super::wire::{self, Reader};
use crate::process::{Payload, Signal};
use crate::runtime::{Port, PortDriver};

/// Bytes asked of the OS per read.
const READ_SIZE: usize = 64 * 1024;

thread_local! {
    /// Each thread's buffer for socket reads, allocated (and zeroed) once
    /// rather than for every read; what a read gets is copied to the
    /// socket's own buffer.
    static READ_BUFFER: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0; READ_SIZE]);
}

/// A packet taken off the receive buffer, for a recv or for the owner.
enum Taken {
    /// Its body, as data.
    Data(Data),
    /// The packet, to be decoded into its term.
    Parsed(Parsed),
}

impl Taken {
    /// What a waiting recv gets: `{ok, Data | Packet}`.
    fn reply(self) -> Reply {
        match self {
            Taken::Data(data) => Reply::Data(data),
            Taken::Parsed(parsed) => Reply::Parsed(parsed),
        }
    }

    /// What an active socket sends its owner.
    fn message(self) -> Out {
        match self {
            Taken::Data(data) => Out::Data(data),
            Taken::Parsed(parsed) => Out::Parsed(parsed),
        }
    }
}

impl InetPort {
    /// `CONNECT`: a time, an address; answers a reference, and
    /// `{inet_async, S, Ref, ok | {error, Reason}}` follows.
    pub(super) fn connect(&self, st: &mut State, caller: Term, r: &mut Reader<'_>) -> Vec<u8> {
        let Some(time) = wire::time(r) else {
            return wire::error("einval");
        };
        let addr = match st.requested_address(r) {
            Ok(addr) => addr,
            Err(reply) => return reply,
        };
        if self.udp {
            return wire::error("enotsup");
        }
        if st.connect.is_some() {
            return wire::error("ealready");
        }
        let Sock::Fresh(socket) = std::mem::replace(&mut st.sock, Sock::None) else {
            return wire::error(if st.connected { "eisconn" } else { "einval" });
        };
        let immediate = match socket.connect(&addr) {
            Ok(()) => true,
            Err(e) if e.raw_os_error() == Some(libc::EINPROGRESS) => false,
            Err(e) => {
                st.sock = Sock::Fresh(socket);
                return wire::error(io_error(&e));
            }
        };
        let mut stream = Conn::from_socket(socket, st.local);
        let Some(poller) = poller() else {
            return wire::error("enotsup");
        };
        let interest = mio::Interest::READABLE | mio::Interest::WRITABLE;
        match poller.register(&mut stream, interest, self.this.clone()) {
            Ok(token) => st.token = Some(token),
            Err(e) => return wire::error(io_error(&e)),
        }
        st.sock = Sock::Stream(stream);
        st.bound = true;
        let reference = st.reference();
        let waiter = Waiter {
            caller,
            reference,
            deadline: time.map(|t| Instant::now() + t),
        };
        if immediate {
            st.connected = true;
            st.outbox.push(Out::Async {
                to: caller,
                reference,
                reply: Reply::Ok,
            });
        } else {
            st.connect = Some(waiter);
            self.add_deadline(st, waiter.deadline);
            // The connection may be complete already.
            self.finish_connect(st);
        }
        wire::ok(&reference.to_be_bytes())
    }

    /// Finishes a waiting connect once the stream says how it went.
    fn finish_connect(&self, st: &mut State) {
        let (Some(waiter), Sock::Stream(stream)) = (st.connect, &st.sock) else {
            return;
        };
        let stream = socket2::SockRef::from(stream);
        let reply = match stream.take_error() {
            Ok(Some(e)) | Err(e) => Reply::Error(io_error(&e)),
            Ok(None) => match stream.peer_addr() {
                Ok(_) => Reply::Ok,
                Err(e) if e.raw_os_error() == Some(libc::ENOTCONN) => return,
                Err(e) => Reply::Error(io_error(&e)),
            },
        };
        st.connect = None;
        if matches!(reply, Reply::Ok) {
            st.connected = true;
        }
        st.outbox.push(Out::Async {
            to: waiter.caller,
            reference: waiter.reference,
            reply,
        });
        self.pump(st);
    }

    /// `ACCEPT`: a time; answers a reference, and
    /// `{inet_async, L, Ref, {ok, S} | {error, Reason}}` follows, `S` a
    /// new port owned by (and linked to) the caller.
    pub(super) fn accept(&self, st: &mut State, caller: Term, r: &mut Reader<'_>) -> Vec<u8> {
        let Some(time) = wire::time(r) else {
            return wire::error("einval");
        };
        if !matches!(st.sock, Sock::Listener(_)) {
            return wire::error(if st.closed { "closed" } else { "einval" });
        }
        let reference = st.reference();
        let waiter = Waiter {
            caller,
            reference,
            deadline: time.map(|t| Instant::now() + t),
        };
        st.acceptors.push_back(waiter);
        self.add_deadline(st, waiter.deadline);
        self.accept_waiting(st);
        wire::ok(&reference.to_be_bytes())
    }

    /// Accepts connections for the waiting acceptors, in order. An
    /// acceptor that has exited gives up its place first, as inet_drv's
    /// monitor of each acceptor cancels its accept: the connection goes
    /// to the next one (else a pool of acceptors, one of them killed,
    /// loses a connection to the dead one and the next waits in vain).
    fn accept_waiting(&self, st: &mut State) {
        self.drop_dead_acceptors(st);
        while let Some(&waiter) = st.acceptors.front() {
            let Sock::Listener(listener) = &st.sock else {
                return;
            };
            let reply = match listener.accept() {
                Ok(stream) => match self.new_connection(stream, st, waiter.caller) {
                    Ok(port) => Reply::Socket(port),
                    Err(reason) => Reply::Error(reason),
                },
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => Reply::Error(io_error(&e)),
            };
            st.acceptors.pop_front();
            st.outbox.push(Out::Async {
                to: waiter.caller,
                reference: waiter.reference,
                reply,
            });
        }
    }

    /// Takes the acceptors whose process has exited out of the queue.
    fn drop_dead_acceptors(&self, st: &mut State) {
        let Some(rt) = self.rt.upgrade() else {
            return;
        };
        st.acceptors.retain(|w| {
            rt.processes
                .get(w.caller)
                .is_some_and(|h| !h.state.is_exited())
        });
    }

    /// The port of an accepted connection, owned by and linked to `owner`;
    /// else the accept's error. With the port table full that is
    /// `system_limit`, and the connection is closed, as erts's inet driver
    /// closes it.
    fn new_connection(&self, stream: Conn, st: &State, owner: Term) -> Result<Term, &'static str> {
        let rt = self.rt.upgrade().ok_or("closed")?;
        let id = rt.ports.new_id().map_err(|_| "system_limit")?;
        let inet = InetPort::accepted(id, self.rt.clone(), stream, st.opts.clone(), st.inet6);
        let mut port = Port::new(id, "tcp_inet".into(), owner, None);
        port.driver = Some(inet.clone() as std::sync::Arc<dyn PortDriver>);
        rt.insert_port(std::sync::Arc::new(port));
        rt.send_signal(owner, Signal::Link { from: id });
        if let Err(e) = inet.register() {
            rt.port_exit(id, Term::atom(beamr_core::atom::Atom::NORMAL), None);
            return Err(io_error(&e));
        }
        Ok(id)
    }

    /// `RECV`: a time, a length; answers a reference, and
    /// `{inet_async, S, Ref, {ok, Data} | {error, Reason}}` follows.
    pub(super) fn recv(&self, st: &mut State, caller: Term, r: &mut Reader<'_>) -> Vec<u8> {
        let (Some(time), Some(length)) = (wire::time(r), r.u32()) else {
            return wire::error("einval");
        };
        if self.udp || st.opts.active != Active::Passive {
            return wire::error("einval");
        }
        if !st.connected {
            return wire::error("enotconn");
        }
        if st.recv.is_some() {
            return wire::error("ealready");
        }
        if length != 0 && st.opts.packet != PacketType::Raw {
            return wire::error("einval");
        }
        let reference = st.reference();
        let waiter = Waiter {
            caller,
            reference,
            deadline: time.map(|t| Instant::now() + t),
        };
        st.recv = Some((waiter, length as usize));
        self.add_deadline(st, waiter.deadline);
        self.pump(st);
        wire::ok(&reference.to_be_bytes())
    }

    /// Gives the buffer's packets to whoever wants them, reading more
    /// while someone does (step 2 of the module doc).
    pub(super) fn pump(&self, st: &mut State) {
        if self.udp {
            return self.dgram_pump(st);
        }
        loop {
            self.deliver_buffered(st);
            let wanted = st.recv.is_some() || st.opts.active != Active::Passive;
            if !wanted || !st.connected || st.eof || st.drained {
                return;
            }
            let Sock::Stream(stream) = &mut st.sock else {
                return;
            };
            let inbuf = &mut st.inbuf;
            let read = READ_BUFFER.with_borrow_mut(|chunk| {
                let read = stream.read(chunk);
                if let Ok(n) = read {
                    inbuf.extend_from_slice(&chunk[..n]);
                }
                read
            });
            match read {
                Ok(0) => {
                    st.eof = true;
                    self.peer_closed(st, None);
                    return;
                }
                Ok(n) => {
                    st.stats.recv_cnt += 1;
                    st.stats.recv_oct += n as u64;
                    st.stats.recv_max = st.stats.recv_max.max(n as u64);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    st.drained = true;
                    return;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    st.eof = true;
                    self.peer_closed(st, Some(io_error(&e)));
                    return;
                }
            }
        }
    }

    /// Cuts packets out of the buffer for a waiting recv, or for the
    /// owner while active.
    fn deliver_buffered(&self, st: &mut State) {
        loop {
            let o = &st.opts;
            let limits = Limits {
                packet_size: u32::try_from(o.packet_size).unwrap_or(u32::MAX),
                line_length: u32::try_from(o.buffer).unwrap_or(0),
                delimiter: o.delimiter,
                // OTP 29's inet_drv cuts a line at the `buffer` size only
                // while no delimiter has come.
                whole_lines: beamr_core::release::otp_release() >= 29,
            };
            let wanted = st.recv.map_or(0, |(_, length)| length);
            if st.recv.is_none() && o.active == Active::Passive {
                return;
            }
            let found = cut(o.packet, &st.inbuf, wanted, &limits, st.http);
            let (consumed, body) = match found {
                Cut::Incomplete => return,
                Cut::TooLarge => return self.packet_error(st),
                Cut::Packet { consumed, body } => (consumed, body),
            };
            let packet = self.take_packet(st, consumed, body);
            if let Some((waiter, _)) = st.recv.take() {
                st.outbox.push(Out::Async {
                    to: waiter.caller,
                    reference: waiter.reference,
                    reply: packet.reply(),
                });
                return;
            }
            st.outbox.push(packet.message());
            st.count_active_delivery();
        }
    }

    /// Takes the packet of `consumed` bytes off the buffer's front, as
    /// what delivers it: its body as data, or (an HTTP line, a TLS
    /// record, unless `{deliver, port}` asks for the bytes) the packet to
    /// be decoded into a term, the HTTP state moved past it.
    fn take_packet(&self, st: &mut State, consumed: usize, body: Range<usize>) -> Taken {
        let packet: Vec<u8> = st.inbuf.drain(..consumed).collect();
        let ty = st.opts.packet;
        if (ty.is_http() || ty == PacketType::SslTls) && st.opts.deliver_term {
            let state = st.http;
            st.http = decode(ty, &packet, state).1;
            return Taken::Parsed(Parsed { packet, ty, state });
        }
        let bytes = if body == (0..packet.len()) {
            packet
        } else {
            packet[body].to_vec()
        };
        Taken::Data(Data {
            bytes,
            binary: st.opts.binary,
            header: st.opts.header,
        })
    }

    /// A packet too long, or malformed (inet_drv's `emsgsize`): a
    /// waiting recv gets the error, the buffer is dropped, and the
    /// socket is closed (with `exit_on_close`; later requests answer
    /// `enotconn`) or stops reading. An active socket delivers nothing
    /// and keeps the bytes: the error waits for the next recv.
    fn packet_error(&self, st: &mut State) {
        let Some((waiter, _)) = st.recv.take() else {
            return;
        };
        st.outbox.push(Out::Async {
            to: waiter.caller,
            reference: waiter.reference,
            reply: Reply::Error("emsgsize"),
        });
        st.inbuf.clear();
        if st.opts.exit_on_close {
            self.close_socket(st);
            st.closed = false;
        } else {
            st.eof = true;
        }
    }

    /// The peer closed the connection (`error`: a read failed instead).
    fn peer_closed(&self, st: &mut State, error: Option<&'static str>) {
        let reason = match error {
            Some(e) if st.opts.show_econnreset => e,
            _ => "closed",
        };
        let active = st.opts.active != Active::Passive;
        if let Some((waiter, _)) = st.recv.take() {
            st.outbox.push(Out::Async {
                to: waiter.caller,
                reference: waiter.reference,
                reply: Reply::Error(reason),
            });
        } else if active {
            if reason != "closed" {
                st.outbox.push(Out::Error(reason));
            }
            st.outbox.push(Out::Closed);
        }
        if st.opts.exit_on_close {
            self.close_socket(st);
            if active {
                st.outbox.push(Out::Exit);
            }
        }
    }

    /// Data from `port_command` by `caller`: framed and written, and the
    /// caller answered `{inet_reply, S, Status}` (with OTP 26's monitor
    /// reference after the status, which the data's header carries).
    pub(super) fn send(&self, caller: Term, bytes: &[u8]) {
        let (mut mref, data) = if beamr_core::release::otp_release() >= 26 {
            let mut r = Reader::new(bytes);
            let size = r.u16().unwrap_or(0) as usize;
            match r.take(size) {
                Some(mref) => (Some(mref.to_vec()), r.rest()),
                None => (None, &[][..]),
            }
        } else {
            (None, bytes)
        };
        if self.udp {
            let status = self.dgram_send(data);
            self.reply_send(caller, status, mref.as_deref());
            return;
        }
        let status = {
            let mut st = self.lock();
            let status = self.write(&mut st, data);
            let high = usize::try_from(st.opts.kept_value(code::HIWTRMRK)).unwrap_or(0);
            let status = if status.is_ok() && caller.is_local_pid() && st.outbuf.len() > high {
                // inet_drv's port is busy above the high watermark: the
                // sender waits until the queue drains below the low one,
                // or its `send_timeout` passes.
                let deadline = st
                    .opts
                    .send_timeout
                    .map(|ms| Instant::now() + Duration::from_millis(u64::from(ms)));
                st.blocked.push_back(BlockedSend {
                    caller,
                    mref: mref.take(),
                    deadline,
                });
                self.add_deadline(&st, deadline);
                self.release_blocked(&mut st);
                None
            } else {
                Some(status)
            };
            if !st.outbox.is_empty() {
                if let (Some(token), Some(poller)) = (st.token, started()) {
                    poller.flush_later(token);
                }
            }
            status
        };
        let Some(status) = status else {
            return;
        };
        self.reply_send(caller, status, mref.as_deref());
    }

    /// Answers a sender `{inet_reply, S, Status}` (with its monitor
    /// reference from OTP 26 on).
    pub(super) fn reply_send(
        &self,
        caller: Term,
        status: Result<(), &'static str>,
        mref: Option<&[u8]>,
    ) {
        let Some(rt) = self.rt.upgrade() else {
            return;
        };
        if !caller.is_local_pid() {
            return;
        }
        let message =
            Payload::build(|h| super::outbox::send_reply_message(h, self.id, status, mref));
        rt.send_signal(caller, Signal::Message(message, None));
    }

    /// Answers the blocked senders `ok` once the queue is at or below the
    /// low watermark.
    pub(super) fn release_blocked(&self, st: &mut State) {
        let low = usize::try_from(st.opts.kept_value(code::LOWTRMRK)).unwrap_or(0);
        if st.outbuf.len() > low {
            return;
        }
        self.answer_blocked(st, Ok(()));
    }

    /// Answers every blocked sender `status`.
    pub(super) fn answer_blocked(&self, st: &mut State, status: Result<(), &'static str>) {
        for b in std::mem::take(&mut st.blocked) {
            st.outbox.push(Out::SendReply {
                to: b.caller,
                mref: b.mref,
                status,
            });
        }
    }

    /// Writes `data`, framed, or queues it behind what waits.
    pub(super) fn write(&self, st: &mut State, data: &[u8]) -> Result<(), &'static str> {
        if self.udp {
            return Err("enotsup");
        }
        if st.closed && !st.connected {
            return Err("closed");
        }
        if !st.connected {
            return Err("enotconn");
        }
        let framed = frame(st.opts.packet, data);
        st.stats.send_cnt += 1;
        st.stats.send_oct += framed.len() as u64;
        st.stats.send_max = st.stats.send_max.max(framed.len() as u64);
        st.outbuf.extend_from_slice(&framed);
        self.write_out(st)
    }

    /// Writes what waits in `outbuf` until the OS takes no more.
    pub(super) fn write_out(&self, st: &mut State) -> Result<(), &'static str> {
        let Sock::Stream(stream) = &mut st.sock else {
            return Err("closed");
        };
        while !st.outbuf.is_empty() {
            match stream.write(&st.outbuf) {
                Ok(n) => {
                    st.outbuf.drain(..n);
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    self.release_blocked(st);
                    return Ok(());
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let reason =
                        if st.opts.show_econnreset && e.raw_os_error() == Some(libc::ECONNRESET) {
                            "econnreset"
                        } else {
                            "closed"
                        };
                    st.outbuf.clear();
                    self.answer_blocked(st, Err(reason));
                    return Err(reason);
                }
            }
        }
        if st.shutdown_write {
            st.shutdown_write = false;
            let _ = socket2::SockRef::from(&*stream).shutdown(std::net::Shutdown::Write);
        }
        self.release_blocked(st);
        for to in std::mem::take(&mut st.subscribers) {
            st.outbox.push(Out::EmptyOutQ(to));
        }
        Ok(())
    }

    /// The I/O thread saw the socket ready.
    pub fn ready(&self, readable: bool, writable: bool) {
        {
            let mut st = self.lock();
            if st.connect.is_some() {
                self.finish_connect(&mut st);
            }
            match st.sock {
                Sock::Listener(_) if readable => self.accept_waiting(&mut st),
                Sock::Dgram(_) if readable => self.dgram_pump(&mut st),
                Sock::Stream(_) if st.connected => {
                    if writable && !st.outbuf.is_empty() && self.write_out(&mut st).is_err() {
                        st.eof = true;
                        self.peer_closed(&mut st, None);
                    }
                    if readable {
                        st.drained = false;
                        self.pump(&mut st);
                    }
                }
                _ => {}
            }
        }
        self.flush();
    }

    /// Deadlines up to `now` passed: the requests they bound time out.
    pub fn expire(&self, now: Instant) {
        {
            let mut st = self.lock();
            let due = |w: &Waiter| w.deadline.is_some_and(|d| d <= now);
            let mut timed_out = Vec::new();
            if st.recv.is_some_and(|(w, _)| due(&w)) {
                timed_out.extend(st.recv.take().map(|(w, _)| w));
            }
            if st.connect.is_some_and(|w| due(&w)) {
                timed_out.extend(st.connect.take());
            }
            let (gone, kept): (Vec<Waiter>, Vec<Waiter>) =
                st.acceptors.drain(..).partition(|w| due(w));
            st.acceptors = kept.into();
            timed_out.extend(gone);
            for w in timed_out {
                st.outbox.push(Out::Async {
                    to: w.caller,
                    reference: w.reference,
                    reply: Reply::Error("timeout"),
                });
            }
            // Blocked senders whose send_timeout passed: `{error,
            // timeout}`, their data still queued; with
            // `send_timeout_close` the socket is closed (later requests
            // answer `enotconn`, as inet_drv's closed state).
            let blocked = std::mem::take(&mut st.blocked);
            let (late, waiting): (Vec<BlockedSend>, Vec<BlockedSend>) = blocked
                .into_iter()
                .partition(|b| b.deadline.is_some_and(|d| d <= now));
            st.blocked = waiting.into();
            if !late.is_empty() {
                for b in late {
                    st.outbox.push(Out::SendReply {
                        to: b.caller,
                        mref: b.mref,
                        status: Err("timeout"),
                    });
                }
                if st.opts.send_timeout_close {
                    self.answer_blocked(&mut st, Err("timeout"));
                    st.outbuf.clear();
                    self.close_socket(&mut st);
                    st.closed = false;
                }
            }
        }
        self.flush();
    }
}
