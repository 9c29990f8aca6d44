//! UDP's datagrams, as `udp_inet` moves them for `gen_udp`:
//!
//! 1. A UDP socket becomes a [`Sock::Dgram`] once it is bound (or when
//!    it first sends or connects, which bind it), and waits on the I/O
//!    thread from then on.
//! 2. `port_command` data is a datagram to send: the destination, the
//!    length of its ancillary data and that data, then the payload
//!    (`prim_inet:sendto/4`); `{any, 0}` as the destination sends on a
//!    connected socket. The sender gets `{inet_reply, S, Status}` at
//!    once: a datagram never waits.
//! 3. `RECV` (time, length; the length is ignored, as inet_drv ignores
//!    it) waits for one datagram, answered `{inet_async, S, Ref, {ok,
//!    [Family, P1, P0, IP... | Data]}}`. Only a passive socket takes one.
//! 4. An active socket sends its owner `{udp, S, IP, Port, Data}` per
//!    datagram, `{udp_passive, S}` when an `{active, N}` count runs out.
//! 5. A datagram longer than the `buffer` option is cut to it (what
//!    the OS keeps of it when the read asks for less).
//! 6. The socket reads only while someone wants a datagram, so a
//!    passive socket leaves them in the OS.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Instant;

use beamr_core::term::Term;
use mio::Interest;

use super::conn::{Dgram, Peer};
use super::options::Active;
use super::outbox::{Data, Datagram, Out, Reply};
use super::poller::poller;
use super::socket::{io_error, InetPort, Sock, State, Waiter};
use super::wire::{self, Reader};

/// Read errors in a row after which a socket stops reading until its
/// next readiness event (an error the OS keeps reporting).
const MAX_READ_ERRORS: usize = 4;

/// Where a datagram goes: an address, or the connected peer.
#[derive(Debug, PartialEq, Eq)]
enum Destination {
    To(Peer),
    Connected,
}

/// Reads the destination of a `sendto`: family, port and address, as
/// `prim_inet`'s `addr` encoding writes it (an IPv6 address with its flow
/// information and scope id, 32 bits each; a Unix-domain path with no
/// port). `Err` names the
/// error: `einval` for a malformed one, `eafnosupport` for a family the
/// socket is not of.
fn destination(r: &mut Reader<'_>, inet6: bool, local: bool) -> Result<Destination, &'static str> {
    if let Some(path) = wire::local_path(r) {
        let path = path.map_err(|()| "einval")?;
        if !local {
            return Err("eafnosupport");
        }
        return Ok(Destination::To(Peer::Local(path)));
    }
    let family = r.u8().ok_or("einval")?;
    let port = r.u16().ok_or("einval")?;
    let ip: IpAddr = match family {
        wire::AF_INET => {
            let b = r.take(4).ok_or("einval")?;
            if inet6 {
                return Err("eafnosupport");
            }
            Ipv4Addr::new(b[0], b[1], b[2], b[3]).into()
        }
        wire::AF_INET6 => {
            let b: [u8; 16] = r.take(16).and_then(|b| b.try_into().ok()).ok_or("einval")?;
            // The flow information and scope id follow; beamr keeps
            // neither.
            r.take(8).ok_or("einval")?;
            if !inet6 {
                return Err("eafnosupport");
            }
            Ipv6Addr::from(b).into()
        }
        wire::AF_ANY if port == 0 => return Ok(Destination::Connected),
        wire::AF_ANY if inet6 => Ipv6Addr::UNSPECIFIED.into(),
        wire::AF_ANY => Ipv4Addr::UNSPECIFIED.into(),
        wire::AF_LOOPBACK if inet6 => Ipv6Addr::LOCALHOST.into(),
        wire::AF_LOOPBACK => Ipv4Addr::LOCALHOST.into(),
        _ => return Err("eafnosupport"),
    };
    if local {
        return Err("eafnosupport");
    }
    Ok(Destination::To(Peer::Ip(SocketAddr::new(ip, port))))
}

impl InetPort {
    /// Makes the opened socket a datagram socket on the I/O thread
    /// (step 1 of the module doc); one already is stays as it is.
    pub(super) fn make_dgram(&self, st: &mut State) -> std::io::Result<()> {
        if matches!(st.sock, Sock::Dgram(_)) {
            return Ok(());
        }
        let Sock::Fresh(socket) = std::mem::replace(&mut st.sock, Sock::None) else {
            return Err(std::io::Error::from_raw_os_error(libc::EINVAL));
        };
        let poller = poller().ok_or_else(|| std::io::Error::from_raw_os_error(libc::ENOTSUP))?;
        let mut udp = Dgram::from_socket(socket, st.local);
        let token = poller.register(&mut udp, Interest::READABLE, self.this.clone())?;
        st.token = Some(token);
        st.sock = Sock::Dgram(udp);
        Ok(())
    }

    /// Sends the datagram `bytes` of a `port_command` describe (step 2).
    pub(super) fn dgram_send(&self, bytes: &[u8]) -> Result<(), &'static str> {
        let mut st = self.lock();
        let mut r = Reader::new(bytes);
        let to = destination(&mut r, st.inet6, st.local)?;
        let ancillary = r.u32().ok_or("einval")?;
        r.take(ancillary as usize).ok_or("einval")?;
        if ancillary != 0 {
            // Per-datagram `tos`/`ttl` options: not here.
            return Err("enotsup");
        }
        let payload = r.rest();
        if matches!(st.sock, Sock::None) {
            return Err("closed");
        }
        self.make_dgram(&mut st).map_err(|e| io_error(&e))?;
        let Sock::Dgram(sock) = &st.sock else {
            return Err("closed");
        };
        let sent = match to {
            Destination::To(to) => sock.send_to(payload, &to),
            Destination::Connected if sock.is_connected() => sock.send(payload),
            // inet_drv's answer to a send with no destination.
            Destination::Connected => return Err("einval"),
        };
        match sent {
            Ok(_) => {
                st.stats.send_cnt += 1;
                st.stats.send_oct += payload.len() as u64;
                st.stats.send_max = st.stats.send_max.max(payload.len() as u64);
                Ok(())
            }
            Err(e) => Err(io_error(&e)),
        }
    }

    /// `CONNECT` on a UDP socket: a time, an address; the socket sends
    /// and receives with that peer only. Answers a reference and
    /// `{inet_async, S, Ref, ok}` follows at once.
    pub(super) fn dgram_connect(
        &self,
        st: &mut State,
        caller: Term,
        r: &mut Reader<'_>,
    ) -> Vec<u8> {
        let Some(_time) = wire::time(r) else {
            return wire::error("einval");
        };
        let to = match wire::local_path(r) {
            Some(Ok(path)) if st.local => Peer::Local(path),
            Some(Ok(_)) => return wire::error("eafnosupport"),
            Some(Err(())) => return wire::error("einval"),
            None => match wire::address(r, st.inet6) {
                Some(addr) if st.local || addr.is_ipv6() != st.inet6 => {
                    return wire::error("eafnosupport")
                }
                Some(addr) => Peer::Ip(addr),
                None => return wire::error("einval"),
            },
        };
        if let Err(e) = self.make_dgram(st) {
            return wire::error(io_error(&e));
        }
        let Sock::Dgram(sock) = &st.sock else {
            return wire::error("einval");
        };
        if let Err(e) = sock.connect(&to) {
            return wire::error(io_error(&e));
        }
        let reference = st.reference();
        st.outbox.push(Out::Async {
            to: caller,
            reference,
            reply: Reply::Ok,
        });
        wire::ok(&reference.to_be_bytes())
    }

    /// `RECV` on a UDP socket: a time, a length (step 3).
    pub(super) fn dgram_recv(&self, st: &mut State, caller: Term, r: &mut Reader<'_>) -> Vec<u8> {
        let (Some(time), Some(_length)) = (wire::time(r), r.u32()) else {
            return wire::error("einval");
        };
        if st.opts.active != Active::Passive {
            return wire::error("einval");
        }
        if let Err(e) = self.make_dgram(st) {
            return wire::error(if st.closed { "closed" } else { io_error(&e) });
        }
        if st.recv.is_some() {
            return wire::error("ealready");
        }
        let reference = st.reference();
        let waiter = Waiter {
            caller,
            reference,
            deadline: time.map(|t| Instant::now() + t),
        };
        st.recv = Some((waiter, 0));
        self.add_deadline(st, waiter.deadline);
        self.dgram_pump(st);
        wire::ok(&reference.to_be_bytes())
    }

    /// Reads datagrams while someone wants them (steps 3 to 6).
    pub(super) fn dgram_pump(&self, st: &mut State) {
        let mut errors = 0;
        loop {
            if st.recv.is_none() && st.opts.active == Active::Passive {
                return;
            }
            let Sock::Dgram(sock) = &st.sock else {
                return;
            };
            let mut buf = vec![0u8; usize::try_from(st.opts.buffer).unwrap_or(0)];
            let (n, from) = match sock.recv_from(&mut buf) {
                Ok(got) => got,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    // An error the socket was told of (a connected
                    // socket's peer refused a datagram): for the waiting
                    // recv, or the active owner's `udp_error`.
                    let reason = io_error(&e);
                    match st.recv.take() {
                        Some((w, _)) => st.outbox.push(Out::Async {
                            to: w.caller,
                            reference: w.reference,
                            reply: Reply::Error(reason),
                        }),
                        None => st.outbox.push(Out::Error(reason)),
                    }
                    errors += 1;
                    if errors >= MAX_READ_ERRORS {
                        return;
                    }
                    continue;
                }
            };
            errors = 0;
            buf.truncate(n);
            st.stats.recv_cnt += 1;
            st.stats.recv_oct += n as u64;
            st.stats.recv_max = st.stats.recv_max.max(n as u64);
            let datagram = Datagram {
                from,
                data: Data {
                    bytes: buf,
                    binary: st.opts.binary,
                    header: st.opts.header,
                },
            };
            if let Some((w, _)) = st.recv.take() {
                st.outbox.push(Out::Async {
                    to: w.caller,
                    reference: w.reference,
                    reply: Reply::Datagram(datagram),
                });
                continue;
            }
            st.outbox.push(Out::Datagram(datagram));
            st.count_active_delivery();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sendto_destinations() {
        let mut r = Reader::new(&[wire::AF_INET, 0, 80, 127, 0, 0, 1, 0, 0, 0, 0]);
        assert_eq!(
            destination(&mut r, false, false),
            Ok(Destination::To(Peer::Ip("127.0.0.1:80".parse().unwrap())))
        );
        assert_eq!(r.u32(), Some(0), "the ancillary length stays unread");
        let mut r = Reader::new(&[wire::AF_ANY, 0, 0]);
        assert_eq!(
            destination(&mut r, false, false),
            Ok(Destination::Connected)
        );
        let mut six = vec![wire::AF_INET6, 1, 0];
        six.extend_from_slice(&Ipv6Addr::LOCALHOST.octets());
        six.extend_from_slice(&[0; 8]);
        assert_eq!(
            destination(&mut Reader::new(&six), true, false),
            Ok(Destination::To(Peer::Ip("[::1]:256".parse().unwrap())))
        );
        assert_eq!(
            destination(&mut Reader::new(&six), false, false),
            Err("eafnosupport")
        );
        let v4 = [wire::AF_INET, 0, 1, 10, 0, 0, 1];
        assert_eq!(
            destination(&mut Reader::new(&v4), true, false),
            Err("eafnosupport")
        );
        assert_eq!(
            destination(&mut Reader::new(&[wire::AF_INET, 0]), false, false),
            Err("einval")
        );
        assert_eq!(
            destination(&mut Reader::new(&[9, 0, 0]), false, false),
            Err("eafnosupport")
        );
    }
}
