//! The messages an inet socket sends, as inet_drv sends them:
//!
//! ```text
//! to the caller of a request:   {inet_async, S, Ref, ok | {ok, X} | {error, Reason}}
//!                               {inet_reply, S, Status}          (OTP 25)
//!                               {inet_reply, S, Status, Mref}    (OTP 26 on)
//! to the owner (active modes):  {tcp, S, Data}   ({S, {data, Data}} with {deliver, port})
//!                               {http, S, HttpPacket}   {ssl_tls, S, Type, Version, Bin}
//!                               {tcp_closed, S}  {tcp_error, S, Reason}  {tcp_passive, S}
//!                               {udp, S, IP, Port, Data}  {udp_error, S, Reason}
//!                               {udp_passive, S}
//! to a subscriber:              {empty_out_q, S}
//! ```
//!
//! A socket queues them while it holds its state's lock and sends them
//! after (`InetPort::flush`): sending to the owner takes the port's lock,
//! which a scheduler may hold while it waits for the socket's.

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;

use super::packet_parser::{decode, term, Decoded, HttpState, PacketType};

/// Received bytes, with the settings that shape them into a term.
#[derive(Debug)]
pub struct Data {
    /// The bytes.
    pub bytes: Vec<u8>,
    /// `mode`: a binary (else a list).
    pub binary: bool,
    /// `header`: the first bytes as list elements before the binary.
    pub header: usize,
}

impl Data {
    /// The data term: a list of bytes, a binary, or with `header` the
    /// first bytes in front of the binary (`[B1, B2 | Binary]`, the
    /// binary empty when nothing follows; data shorter than the header
    /// is a plain list, as inet_drv delivers it).
    pub fn term(&self, h: &mut Heap) -> Term {
        if !self.binary || self.bytes.len() < self.header {
            return h.byte_list(&self.bytes, Term::NIL);
        }
        let k = self.header;
        let tail = h.binary(&self.bytes[k..]);
        if k == 0 {
            return tail;
        }
        h.byte_list(&self.bytes[..k], tail)
    }
}

/// A packet the socket decodes (an HTTP line, a TLS record): its bytes,
/// decoded again into its term when the message is built (the socket
/// decoded it once already, for the HTTP state that follows).
#[derive(Debug)]
pub struct Parsed {
    /// The whole packet.
    pub packet: Vec<u8>,
    /// Its type.
    pub ty: PacketType,
    /// The HTTP state it was read in.
    pub state: HttpState,
}

impl Parsed {
    /// The packet's term: the HTTP term (`{http_request, ...}`, ...), or
    /// `{ssl_tls, S, Type, {Major, Minor}, Bin}` with the socket in it.
    pub fn term(&self, h: &mut Heap, socket: Term) -> Term {
        match decode(self.ty, &self.packet, self.state).0 {
            Decoded::Http(line) => term::http_term(h, &line, self.ty.http_binaries()),
            Decoded::SslTls(record) => term::ssl_tls_term(h, &record, socket),
            Decoded::Body(body) => h.binary(body),
        }
    }

    /// What an active socket sends its owner: `{http, S, Packet}`, or
    /// the TLS tuple itself.
    pub fn message(&self, h: &mut Heap, socket: Term) -> Term {
        let packet = self.term(h, socket);
        if self.ty == PacketType::SslTls {
            return packet;
        }
        h.tuple(&[atom("http"), socket, packet])
    }
}

/// A datagram a UDP socket received: who sent it, and its data.
#[derive(Debug)]
pub struct Datagram {
    /// The sender's address.
    pub from: super::conn::Peer,
    /// The datagram.
    pub data: Data,
}

impl Datagram {
    /// What a recv gets in its `{ok, ...}`: the sender's address as
    /// inet_drv encodes it (family, port, address bytes) in front of
    /// the data, `[F, P1, P0, A, B, C, D | Data]`, which `prim_inet`
    /// takes apart.
    fn reply_term(&self, h: &mut Heap) -> Term {
        let data = self.data.term(h);
        let prefix = self.from.encode();
        h.byte_list(&prefix, data)
    }

    /// `{udp, S, IP, Port, Data}`, for the owner of an active socket.
    fn message(&self, h: &mut Heap, socket: Term) -> Term {
        let (ip, port) = match &self.from {
            super::conn::Peer::Ip(addr) => (ip_tuple(h, addr.ip()), addr.port()),
            super::conn::Peer::Local(path) => {
                let path = h.binary(path);
                (h.tuple(&[atom("local"), path]), 0)
            }
        };
        let port = Term::small_unchecked(i64::from(port));
        let data = self.data.term(h);
        h.tuple(&[atom("udp"), socket, ip, port, data])
    }
}

/// `{A, B, C, D}` or the eight 16-bit groups of an IPv6 address.
pub fn ip_tuple(h: &mut Heap, ip: std::net::IpAddr) -> Term {
    let parts: Vec<Term> = match ip {
        std::net::IpAddr::V4(ip) => ip
            .octets()
            .iter()
            .map(|&b| Term::small_unchecked(i64::from(b)))
            .collect(),
        std::net::IpAddr::V6(ip) => ip
            .segments()
            .iter()
            .map(|&s| Term::small_unchecked(i64::from(s)))
            .collect(),
    };
    h.tuple(&parts)
}

/// The result an `inet_async` message carries.
#[derive(Debug)]
pub enum Reply {
    /// `ok` (a connect).
    Ok,
    /// `{ok, Port}` (an accept).
    Socket(Term),
    /// `{ok, Data}` (a recv).
    Data(Data),
    /// `{ok, Packet}` (a recv of a decoded packet).
    Parsed(Parsed),
    /// `{ok, [Address | Data]}` (a UDP recv).
    Datagram(Datagram),
    /// `{error, Reason}`.
    Error(&'static str),
}

/// One message waiting to be sent.
#[derive(Debug)]
pub enum Out {
    /// `{inet_async, S, Ref, Reply}` to `to`.
    Async {
        /// The requesting process.
        to: Term,
        /// The request's reference.
        reference: u16,
        /// What became of it.
        reply: Reply,
    },
    /// `{tcp, S, Data}` to the owner.
    Data(Data),
    /// `{http, S, Packet}` or `{ssl_tls, ...}` to the owner.
    Parsed(Parsed),
    /// `{udp, S, IP, Port, Data}` to the owner.
    Datagram(Datagram),
    /// `{tcp_closed, S}` to the owner.
    Closed,
    /// `{tcp_error, S, Reason}` (`udp_error`) to the owner.
    Error(&'static str),
    /// `{tcp_passive, S}` (`udp_passive`) to the owner.
    Passive,
    /// `{empty_out_q, S}` to a subscriber.
    EmptyOutQ(Term),
    /// `{inet_reply, S, Status}` (with OTP 26's monitor reference, the
    /// external format of which `mref` holds) to `to`, a sender whose
    /// reply waited for the queue to drain ([`Out::Async`]'s kind: for
    /// a caller, not the owner).
    SendReply {
        /// The sending process.
        to: Term,
        /// The monitor reference of its `send`, encoded.
        mref: Option<Vec<u8>>,
        /// `ok`, or the error.
        status: Result<(), &'static str>,
    },
    /// The port exits with reason `normal` (`exit_on_close` after
    /// `tcp_closed`).
    Exit,
}

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("atom"))
}

/// `{error, Reason}`.
pub fn error_tuple(h: &mut Heap, reason: &str) -> Term {
    let reason = atom(reason);
    h.tuple(&[atom("error"), reason])
}

/// The term of `reply` to a request on `socket`.
pub fn reply_term(h: &mut Heap, socket: Term, reply: &Reply) -> Term {
    match reply {
        Reply::Ok => atom("ok"),
        Reply::Socket(port) => h.tuple(&[atom("ok"), *port]),
        Reply::Data(data) => {
            let data = data.term(h);
            h.tuple(&[atom("ok"), data])
        }
        Reply::Parsed(parsed) => {
            let packet = parsed.term(h, socket);
            h.tuple(&[atom("ok"), packet])
        }
        Reply::Datagram(datagram) => {
            let packet = datagram.reply_term(h);
            h.tuple(&[atom("ok"), packet])
        }
        Reply::Error(reason) => error_tuple(h, reason),
    }
}

/// `{inet_reply, S, Status}`, or `{inet_reply, S, Status, MRef}` when
/// the send carried OTP 26's monitor reference (`mref`, encoded).
pub fn send_reply_message(
    h: &mut Heap,
    socket: Term,
    status: Result<(), &str>,
    mref: Option<&[u8]>,
) -> Term {
    let status = match status {
        Ok(()) => atom("ok"),
        Err(reason) => error_tuple(h, reason),
    };
    let tag = atom("inet_reply");
    match mref {
        Some(mref) => {
            let mref = beamr_core::etf::decode(mref, h).unwrap_or(Term::NIL);
            h.tuple(&[tag, socket, status, mref])
        }
        None => h.tuple(&[tag, socket, status]),
    }
}

/// `{inet_async, S, Ref, Reply}`.
pub fn async_message(h: &mut Heap, socket: Term, reference: u16, reply: &Reply) -> Term {
    let reply = reply_term(h, socket, reply);
    h.tuple(&[
        atom("inet_async"),
        socket,
        Term::small_unchecked(i64::from(reference)),
        reply,
    ])
}

/// A message to the owner (`None` for [`Out::Async`], [`Out::EmptyOutQ`]
/// and [`Out::Exit`]). `deliver_term` is the `deliver` option: `port`
/// makes data `{S, {data, Data}}`. `udp`: the socket is a `udp_inet`
/// one, whose messages are tagged `udp_*`.
pub fn owner_message(
    h: &mut Heap,
    socket: Term,
    out: &Out,
    deliver_term: bool,
    udp: bool,
) -> Option<Term> {
    Some(match out {
        Out::Error(reason) if udp => h.tuple(&[atom("udp_error"), socket, atom(reason)]),
        Out::Passive if udp => h.tuple(&[atom("udp_passive"), socket]),
        Out::Datagram(datagram) => datagram.message(h, socket),
        Out::Data(data) if !deliver_term => {
            let data = data.term(h);
            let inner = h.tuple(&[atom("data"), data]);
            h.tuple(&[socket, inner])
        }
        Out::Data(data) => {
            let data = data.term(h);
            h.tuple(&[atom("tcp"), socket, data])
        }
        Out::Parsed(parsed) => parsed.message(h, socket),
        Out::Closed => h.tuple(&[atom("tcp_closed"), socket]),
        Out::Error(reason) => h.tuple(&[atom("tcp_error"), socket, atom(reason)]),
        Out::Passive => h.tuple(&[atom("tcp_passive"), socket]),
        Out::Async { .. } | Out::SendReply { .. } | Out::EmptyOutQ(_) | Out::Exit => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_data_by_mode_and_header() {
        let mut h = Heap::new();
        let d = |binary, header| Data {
            bytes: b"abc".to_vec(),
            binary,
            header,
        };
        let list = d(false, 1).term(&mut h);
        assert_eq!(list.list_to_vec().unwrap().len(), 3);
        let bin = d(true, 0).term(&mut h);
        assert_eq!(
            bin.as_binary().and_then(|b| b.as_bytes()),
            Some(&b"abc"[..])
        );
        let headed = d(true, 2).term(&mut h);
        assert!(headed.list_to_vec().is_none(), "an improper list");
    }

    #[test]
    fn parsed_packets_become_http_and_tls_messages() {
        let mut h = Heap::new();
        let socket = Term::port(7);
        let http = Parsed {
            packet: b"GET / HTTP/1.1\r\n".to_vec(),
            ty: PacketType::HttpBin,
            state: HttpState::Start,
        };
        let message = http.message(&mut h, socket);
        let fields = message.as_tuple().map(<[Term]>::to_vec).unwrap_or_default();
        assert_eq!(fields.len(), 3);
        assert_eq!(fields[0], atom("http"));
        assert_eq!(fields[1], socket);
        let tls = Parsed {
            packet: b"\x16\x03\x03\x00\x01x".to_vec(),
            ty: PacketType::SslTls,
            state: HttpState::Start,
        };
        let record = tls.message(&mut h, socket);
        let fields = record.as_tuple().map(<[Term]>::to_vec).unwrap_or_default();
        assert_eq!(fields.len(), 5);
        assert_eq!((fields[0], fields[1]), (atom("ssl_tls"), socket));
    }
}
