//! Socket options as `prim_inet:setopts/2` and `getopts/2` send them:
//! one byte naming the option, then its value.
//!
//! ```text
//! bool, int, enum, time:  Value:32 (time: -1 for infinity)
//! linger:                 OnOff:32  Seconds:32
//! active:                 Mode:32 (0 false, 1 true, 2 once, 3 N), and
//!                         for mode 3, N:16 (signed)
//! ```
//!
//! Options of the driver itself (`active`, `packet`, `mode`, ...) live
//! in [`Options`]; options of the OS socket (`reuseaddr`, `nodelay`, ...)
//! are set on the socket at once, or kept until it exists and set when it
//! is opened ([`Options::pending`]).

use std::net::{Ipv4Addr, Ipv6Addr};
use std::time::Duration;

use socket2::{InterfaceIndexOrAddress, SockRef};

use super::packet_parser::PacketType;
use super::wire::Reader;

/// Option codes (`INET_OPT_*`, `TCP_OPT_*`, `INET_LOPT_*`).
pub mod code {
    /// `reuseaddr`.
    pub const REUSEADDR: u8 = 0;
    /// `keepalive`.
    pub const KEEPALIVE: u8 = 1;
    /// `dontroute`.
    pub const DONTROUTE: u8 = 2;
    /// `linger`.
    pub const LINGER: u8 = 3;
    /// `broadcast`.
    pub const BROADCAST: u8 = 4;
    /// `oobinline`.
    pub const OOBINLINE: u8 = 5;
    /// `sndbuf`.
    pub const SNDBUF: u8 = 6;
    /// `recbuf`.
    pub const RCVBUF: u8 = 7;
    /// `priority`.
    pub const PRIORITY: u8 = 8;
    /// `tos`.
    pub const TOS: u8 = 9;
    /// `nodelay`.
    pub const NODELAY: u8 = 10;
    /// `multicast_if`.
    pub const MULTICAST_IF: u8 = 11;
    /// `multicast_ttl`.
    pub const MULTICAST_TTL: u8 = 12;
    /// `multicast_loop`.
    pub const MULTICAST_LOOP: u8 = 13;
    /// `add_membership`.
    pub const ADD_MEMBERSHIP: u8 = 14;
    /// `drop_membership`.
    pub const DROP_MEMBERSHIP: u8 = 15;
    /// `ipv6_v6only`.
    pub const IPV6_V6ONLY: u8 = 16;
    /// `reuseport`.
    pub const REUSEPORT: u8 = 17;
    /// `buffer`.
    pub const BUFFER: u8 = 20;
    /// `tclass`.
    pub const TCLASS: u8 = 41;
    /// `recvtos`.
    pub const RECVTOS: u8 = 43;
    /// `recvtclass`.
    pub const RECVTCLASS: u8 = 44;
    /// `ttl`.
    pub const TTL: u8 = 46;
    /// `recvttl`.
    pub const RECVTTL: u8 = 47;
    /// `header`.
    pub const HEADER: u8 = 21;
    /// `active`.
    pub const ACTIVE: u8 = 22;
    /// `packet`.
    pub const PACKET: u8 = 23;
    /// `mode`.
    pub const MODE: u8 = 24;
    /// `deliver`.
    pub const DELIVER: u8 = 25;
    /// `exit_on_close`.
    pub const EXITONCLOSE: u8 = 26;
    /// `high_watermark`.
    pub const HIWTRMRK: u8 = 27;
    /// `low_watermark`.
    pub const LOWTRMRK: u8 = 28;
    /// `send_timeout`.
    pub const SEND_TIMEOUT: u8 = 30;
    /// `delay_send`.
    pub const DELAY_SEND: u8 = 31;
    /// `packet_size`.
    pub const PACKET_SIZE: u8 = 32;
    /// `read_packets`.
    pub const READ_PACKETS: u8 = 33;
    /// `send_timeout_close`.
    pub const SEND_TIMEOUT_CLOSE: u8 = 35;
    /// `high_msgq_watermark`.
    pub const MSGQ_HIWTRMRK: u8 = 36;
    /// `low_msgq_watermark`.
    pub const MSGQ_LOWTRMRK: u8 = 37;
    /// `show_econnreset`.
    pub const SHOW_ECONNRESET: u8 = 39;
    /// `line_delimiter`.
    pub const LINE_DELIM: u8 = 40;
    /// `debug`.
    pub const DEBUG: u8 = 99;
}

/// The `active` setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Active {
    /// `false`: data waits for `recv`.
    Passive,
    /// `true`: every packet is a message.
    Always,
    /// `once`: one message, then passive.
    Once,
    /// `N`: N messages, then passive and `{tcp_passive, S}`.
    Count(i32),
}

/// The largest count `{active, N}` may reach.
const ACTIVE_MAX: i32 = 32767;

/// The driver's own options, with erts's defaults (`inet_int.hrl`).
#[derive(Clone, Debug)]
pub struct Options {
    /// `active`.
    pub active: Active,
    /// `packet`.
    pub packet: PacketType,
    /// `mode`: binaries rather than lists.
    pub binary: bool,
    /// `header`: bytes delivered as list elements before the binary.
    pub header: usize,
    /// `exit_on_close`.
    pub exit_on_close: bool,
    /// `deliver`: `term` (true) or `port`.
    pub deliver_term: bool,
    /// `packet_size` (0: no limit).
    pub packet_size: usize,
    /// `line_delimiter`.
    pub delimiter: u8,
    /// `buffer`.
    pub buffer: i32,
    /// `buffer` was set: a larger `recbuf` no longer raises it.
    pub buffer_set: bool,
    /// `delay_send`.
    pub delay_send: bool,
    /// `send_timeout` in milliseconds (`None`: infinity).
    pub send_timeout: Option<u32>,
    /// `send_timeout_close`.
    pub send_timeout_close: bool,
    /// `show_econnreset`.
    pub show_econnreset: bool,
    /// `high_watermark`, `low_watermark`, `high_msgq_watermark`,
    /// `low_msgq_watermark`, `read_packets`, `recvttl`: kept and answered
    /// (`recvttl` asks for the TTL of received datagrams, which only
    /// UDP's data, not here, would carry).
    pub kept: [(u8, i32); 6],
    /// `debug`.
    pub debug: bool,
    /// Socket options given before the socket was opened.
    pub pending: Vec<(u8, Value)>,
}

impl Options {
    /// The value kept for option `code` (one of [`Options::kept`]'s).
    pub fn kept_value(&self, code: u8) -> i32 {
        self.kept
            .iter()
            .find(|&&(c, _)| c == code)
            .map_or(0, |&(_, v)| v)
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            active: Active::Passive,
            packet: PacketType::Raw,
            binary: false,
            header: 0,
            exit_on_close: true,
            deliver_term: true,
            packet_size: 0,
            delimiter: b'\n',
            // The user-level buffer erl starts a socket with: 1460 bytes
            // up to OTP 28, 9216 from OTP 29 (what `inet:getopts(S,
            // [buffer])` shows, and the longest HTTP line or packet line
            // a socket takes without `packet_size`).
            buffer: if beamr_core::release::otp_release() >= 29 {
                9216
            } else {
                1460
            },
            buffer_set: false,
            delay_send: false,
            send_timeout: None,
            send_timeout_close: false,
            show_econnreset: false,
            kept: [
                (code::HIWTRMRK, 8192),
                (code::LOWTRMRK, 4096),
                (code::MSGQ_HIWTRMRK, 8192),
                (code::MSGQ_LOWTRMRK, 4096),
                (code::READ_PACKETS, 5),
                (code::RECVTTL, 0),
            ],
            debug: false,
            pending: Vec::new(),
        }
    }
}

/// One option's value as `setopts` sends it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A 32-bit value (booleans, integers, enums, times).
    Int(i32),
    /// `linger`: on, seconds.
    Linger(bool, i32),
    /// `add_membership` and `drop_membership`: a multicast group.
    Membership(Membership),
    /// `multicast_if` as `getopts` answers it: the IPv4 address (as a
    /// big-endian number) or the IPv6 interface index, then the family
    /// (1 for IPv4, 2 for IPv6).
    MulticastIf(i32, i32),
    /// `{active, N}`: add N to the count.
    ActiveCount(i16),
}

/// A multicast group to join or leave, as prim_inet encodes it: the
/// family, the interface index, then the group (and for IPv4 the
/// interface's address).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Membership {
    /// `{Group, Interface}` or `{Group, Interface, Index}`.
    V4 {
        /// The group.
        group: Ipv4Addr,
        /// The interface's address (`any`: 0.0.0.0).
        interface: Ipv4Addr,
        /// The interface's index, 0 for none.
        index: u32,
    },
    /// `{Group, Index}`.
    V6 {
        /// The group.
        group: Ipv6Addr,
        /// The interface's index.
        index: u32,
    },
}

/// Reads a membership after its option byte.
fn membership(r: &mut Reader<'_>) -> Option<Membership> {
    let family = r.i32()?;
    let index = u32::try_from(r.i32()?).ok()?;
    let v4 = |r: &mut Reader<'_>| {
        let b = r.take(4)?;
        Some(Ipv4Addr::new(b[0], b[1], b[2], b[3]))
    };
    match family {
        1 => Some(Membership::V4 {
            group: v4(r)?,
            interface: v4(r)?,
            index,
        }),
        2 => {
            let b: [u8; 16] = r.take(16)?.try_into().ok()?;
            Some(Membership::V6 {
                group: Ipv6Addr::from(b),
                index,
            })
        }
        _ => None,
    }
}

/// The errors of `setopts`/`getopts`, by errno name.
pub type OptError = &'static str;

/// Reads a `setopts` request into (code, value) pairs.
pub fn parse(data: &[u8]) -> Result<Vec<(u8, Value)>, OptError> {
    let mut r = Reader::new(data);
    let mut out = Vec::new();
    while !r.is_empty() {
        let opt = r.u8().ok_or("einval")?;
        let value = match opt {
            code::LINGER => {
                let on = r.i32().ok_or("einval")?;
                Value::Linger(on != 0, r.i32().ok_or("einval")?)
            }
            code::ADD_MEMBERSHIP | code::DROP_MEMBERSHIP => {
                Value::Membership(membership(&mut r).ok_or("einval")?)
            }
            code::ACTIVE => match r.i32().ok_or("einval")? {
                3 => Value::ActiveCount(r.i16().ok_or("einval")?),
                mode => Value::Int(mode),
            },
            _ => Value::Int(r.i32().ok_or("einval")?),
        };
        out.push((opt, value));
    }
    Ok(out)
}

/// What setting an option asks of the socket besides the new value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[must_use]
pub struct Changed {
    /// `active` changed: deliver what waits, if it may go now.
    pub active: bool,
    /// An `{active, N}` count ran out: send `{tcp_passive, S}`.
    pub passive_message: bool,
}

impl Options {
    /// Sets option `opt` to `value`; `sock` is the OS socket when there
    /// is one (else socket options wait in [`Options::pending`]).
    pub fn set(
        &mut self,
        opt: u8,
        value: Value,
        sock: Option<SockRef<'_>>,
    ) -> Result<Changed, OptError> {
        let mut changed = Changed::default();
        let int = match value {
            Value::Int(n) => n,
            _ => 0,
        };
        match (opt, value) {
            (code::ACTIVE, Value::ActiveCount(n)) => {
                let now = match self.active {
                    Active::Count(c) => c,
                    _ => 0,
                };
                let sum = now + i32::from(n);
                if sum > ACTIVE_MAX {
                    return Err("einval");
                }
                if sum <= 0 {
                    self.active = Active::Passive;
                    changed.passive_message = true;
                } else {
                    self.active = Active::Count(sum);
                }
                changed.active = true;
            }
            (code::ACTIVE, _) => {
                self.active = match int {
                    0 => Active::Passive,
                    1 => Active::Always,
                    2 => Active::Once,
                    _ => return Err("einval"),
                };
                changed.active = true;
            }
            (code::PACKET, _) => {
                self.packet = u32::try_from(int)
                    .ok()
                    .and_then(PacketType::from_code)
                    .ok_or("enotsup")?;
            }
            (code::MODE, _) => self.binary = int != 0,
            (code::HEADER, _) => self.header = usize::try_from(int).map_err(|_| "einval")?,
            (code::EXITONCLOSE, _) => self.exit_on_close = int != 0,
            (code::DELIVER, _) => self.deliver_term = int != 0,
            (code::PACKET_SIZE, _) => {
                self.packet_size = usize::try_from(int).map_err(|_| "einval")?;
            }
            (code::LINE_DELIM, _) => self.delimiter = u8::try_from(int).map_err(|_| "einval")?,
            (code::BUFFER, _) => {
                self.buffer = int.max(0);
                self.buffer_set = true;
            }
            (code::DELAY_SEND, _) => self.delay_send = int != 0,
            (code::SEND_TIMEOUT, _) => self.send_timeout = u32::try_from(int).ok(),
            (code::SEND_TIMEOUT_CLOSE, _) => self.send_timeout_close = int != 0,
            (code::SHOW_ECONNRESET, _) => self.show_econnreset = int != 0,
            (code::DEBUG, _) => self.debug = int != 0,
            (opt, _) if self.kept.iter().any(|&(c, _)| c == opt) => {
                for kept in &mut self.kept {
                    if kept.0 == opt {
                        kept.1 = int;
                    }
                }
            }
            (opt, value) => match sock {
                Some(sock) => {
                    set_socket_option(&sock, opt, value)?;
                    // erts raises the user-level buffer with the OS's
                    // receive buffer, unless `buffer` was set.
                    if opt == code::RCVBUF && !self.buffer_set {
                        self.buffer = self.buffer.max(int);
                    }
                }
                None => {
                    if !is_socket_option(opt) {
                        return Err("einval");
                    }
                    self.pending.retain(|&(o, _)| o != opt);
                    self.pending.push((opt, value));
                }
            },
        }
        Ok(changed)
    }

    /// Encodes option `opt`'s current value for a `getopts` reply
    /// (the code byte first); `sock` is the OS socket, if there is one.
    pub fn get(&self, opt: u8, sock: Option<SockRef<'_>>) -> Result<Vec<u8>, OptError> {
        let mut out = vec![opt];
        let mut int = |n: i32| out.extend_from_slice(&n.to_be_bytes());
        match opt {
            code::ACTIVE => match self.active {
                Active::Passive => int(0),
                Active::Always => int(1),
                Active::Once => int(2),
                Active::Count(n) => {
                    int(3);
                    out.extend_from_slice(&(n as i16).to_be_bytes());
                }
            },
            code::PACKET => int(self.packet.code() as i32),
            code::MODE => int(i32::from(self.binary)),
            code::HEADER => int(self.header as i32),
            code::EXITONCLOSE => int(i32::from(self.exit_on_close)),
            code::DELIVER => int(i32::from(self.deliver_term)),
            code::PACKET_SIZE => int(self.packet_size as i32),
            code::LINE_DELIM => int(i32::from(self.delimiter)),
            code::BUFFER => int(self.buffer),
            code::DELAY_SEND => int(i32::from(self.delay_send)),
            code::SEND_TIMEOUT => int(self.send_timeout.map_or(-1, |t| t as i32)),
            code::SEND_TIMEOUT_CLOSE => int(i32::from(self.send_timeout_close)),
            code::SHOW_ECONNRESET => int(i32::from(self.show_econnreset)),
            code::DEBUG => int(i32::from(self.debug)),
            opt if self.kept.iter().any(|&(c, _)| c == opt) => {
                let value = self.kept.iter().find(|&&(c, _)| c == opt).map(|k| k.1);
                int(value.unwrap_or(0));
            }
            opt => {
                let value = match sock {
                    Some(sock) => get_socket_option(&sock, opt)?,
                    None => self
                        .pending
                        .iter()
                        .find(|&&(o, _)| o == opt)
                        .map(|&(_, v)| v)
                        .or_else(|| is_socket_option(opt).then(|| default_socket_option(opt)))
                        .ok_or("einval")?,
                };
                match value {
                    Value::Int(n) => int(n),
                    Value::Linger(on, secs) => {
                        int(i32::from(on));
                        int(secs);
                    }
                    Value::MulticastIf(value, family) => {
                        int(value);
                        int(family);
                    }
                    Value::ActiveCount(_) | Value::Membership(_) => return Err("einval"),
                }
            }
        }
        Ok(out)
    }
}

/// Whether `opt` is an option of the OS socket beamr sets.
pub fn is_socket_option(opt: u8) -> bool {
    matches!(
        opt,
        code::REUSEADDR
            | code::KEEPALIVE
            | code::DONTROUTE
            | code::LINGER
            | code::BROADCAST
            | code::OOBINLINE
            | code::SNDBUF
            | code::RCVBUF
            | code::PRIORITY
            | code::TOS
            | code::NODELAY
            | code::IPV6_V6ONLY
            | code::REUSEPORT
            | code::TCLASS
            | code::RECVTOS
            | code::RECVTCLASS
            | code::TTL
            | code::MULTICAST_TTL
            | code::MULTICAST_LOOP
            | code::MULTICAST_IF
            | code::ADD_MEMBERSHIP
            | code::DROP_MEMBERSHIP
    )
}

/// What a socket not yet opened answers for a socket option.
fn default_socket_option(opt: u8) -> Value {
    match opt {
        code::LINGER => Value::Linger(false, 0),
        code::MULTICAST_TTL | code::MULTICAST_LOOP => Value::Int(1),
        code::MULTICAST_IF => Value::MulticastIf(0, 1),
        _ => Value::Int(0),
    }
}

/// An OS error as the errno name erts gives.
fn os_error(e: &std::io::Error) -> OptError {
    match e.raw_os_error() {
        Some(libc::EINVAL) => "einval",
        Some(libc::ENOPROTOOPT) => "enoprotoopt",
        Some(libc::EACCES | libc::EPERM) => "eperm",
        Some(libc::ENOTSOCK | libc::EBADF) => "ebadf",
        _ => "einval",
    }
}

/// Sets a socket option on the OS socket.
pub fn set_socket_option(sock: &SockRef<'_>, opt: u8, value: Value) -> Result<(), OptError> {
    let (int, flag) = match value {
        Value::Int(n) => (n, n != 0),
        Value::Linger(on, _) => (0, on),
        Value::Membership(m) => {
            // erts sets these and answers ok whatever the kernel says
            // (a group that is no multicast address, leaving a group not
            // joined): so does beamr.
            let _ = set_membership(sock, opt == code::ADD_MEMBERSHIP, m);
            return Ok(());
        }
        Value::ActiveCount(_) | Value::MulticastIf(..) => return Err("einval"),
    };
    let size = usize::try_from(int).map_err(|_| "einval");
    let done = match opt {
        code::REUSEADDR => sock.set_reuse_address(flag),
        code::KEEPALIVE => sock.set_keepalive(flag),
        // socket2 has no SO_DONTROUTE; erts sets it, beamr refuses to
        // pretend.
        code::DONTROUTE => return Err("enotsup"),
        code::LINGER => {
            let Value::Linger(on, secs) = value else {
                return Err("einval");
            };
            let secs = u64::try_from(secs).map_err(|_| "einval")?;
            sock.set_linger(on.then(|| Duration::from_secs(secs)))
        }
        code::BROADCAST => sock.set_broadcast(flag),
        code::OOBINLINE => sock.set_out_of_band_inline(flag),
        code::SNDBUF => sock.set_send_buffer_size(size?),
        code::RCVBUF => sock.set_recv_buffer_size(size?),
        code::PRIORITY => sock.set_priority(u32::try_from(int).map_err(|_| "einval")?),
        code::TOS => sock.set_tos_v4(u32::try_from(int).map_err(|_| "einval")?),
        code::NODELAY => sock.set_tcp_nodelay(flag),
        code::IPV6_V6ONLY => sock.set_only_v6(flag),
        code::REUSEPORT => sock.set_reuse_port(flag),
        code::TCLASS => sock.set_tclass_v6(u32::try_from(int).map_err(|_| "einval")?),
        code::RECVTOS => sock.set_recv_tos_v4(flag),
        code::RECVTCLASS => sock.set_recv_tclass_v6(flag),
        code::TTL => sock.set_ttl_v4(u32::try_from(int).map_err(|_| "einval")?),
        code::MULTICAST_TTL => sock.set_multicast_ttl_v4(u32::try_from(int).map_err(|_| "einval")?),
        code::MULTICAST_LOOP => sock.set_multicast_loop_v4(flag),
        code::MULTICAST_IF => {
            // An IPv4 socket takes an address, an IPv6 one an index; the
            // kernel's refusal is not told, as erts does not tell it.
            let v6 = sock.local_addr().is_ok_and(|a| a.is_ipv6());
            let _ = if v6 {
                sock.set_multicast_if_v6(int as u32)
            } else {
                sock.set_multicast_if_v4(&Ipv4Addr::from(int as u32))
            };
            Ok(())
        }
        _ => return Err("einval"),
    };
    done.map_err(|e| os_error(&e))
}

/// Joins (`join`) or leaves the group `m`.
fn set_membership(sock: &SockRef<'_>, join: bool, m: Membership) -> std::io::Result<()> {
    match m {
        Membership::V4 {
            group,
            interface,
            index,
        } => {
            let on = if index == 0 {
                InterfaceIndexOrAddress::Address(interface)
            } else {
                InterfaceIndexOrAddress::Index(index)
            };
            if join {
                sock.join_multicast_v4_n(&group, &on)
            } else {
                sock.leave_multicast_v4_n(&group, &on)
            }
        }
        Membership::V6 { group, index } => {
            if join {
                sock.join_multicast_v6(&group, index)
            } else {
                sock.leave_multicast_v6(&group, index)
            }
        }
    }
}

/// Reads a socket option from the OS socket.
fn get_socket_option(sock: &SockRef<'_>, opt: u8) -> Result<Value, OptError> {
    let b = |r: std::io::Result<bool>| r.map(|v| Value::Int(i32::from(v)));
    let n = |r: std::io::Result<usize>| r.map(|v| Value::Int(v as i32));
    let u = |r: std::io::Result<u32>| r.map(|v| Value::Int(v as i32));
    let value = match opt {
        code::REUSEADDR => b(sock.reuse_address()),
        code::KEEPALIVE => b(sock.keepalive()),
        code::LINGER => sock.linger().map(|l| match l {
            Some(d) => Value::Linger(true, d.as_secs() as i32),
            None => Value::Linger(false, 0),
        }),
        code::BROADCAST => b(sock.broadcast()),
        code::OOBINLINE => b(sock.out_of_band_inline()),
        code::SNDBUF => n(sock.send_buffer_size()),
        code::RCVBUF => n(sock.recv_buffer_size()),
        code::PRIORITY => u(sock.priority()),
        code::TOS => u(sock.tos_v4()),
        code::NODELAY => b(sock.tcp_nodelay()),
        code::IPV6_V6ONLY => b(sock.only_v6()),
        code::REUSEPORT => b(sock.reuse_port()),
        code::TCLASS => u(sock.tclass_v6()),
        code::RECVTOS => b(sock.recv_tos_v4()),
        code::RECVTCLASS => b(sock.recv_tclass_v6()),
        code::TTL => u(sock.ttl_v4()),
        code::MULTICAST_TTL => u(sock.multicast_ttl_v4()),
        code::MULTICAST_LOOP => b(sock.multicast_loop_v4()),
        code::MULTICAST_IF => {
            if sock.local_addr().is_ok_and(|a| a.is_ipv6()) {
                sock.multicast_if_v6()
                    .map(|i| Value::MulticastIf(i as i32, 2))
            } else {
                sock.multicast_if_v4()
                    .map(|a| Value::MulticastIf(u32::from(a) as i32, 1))
            }
        }
        _ => return Err("einval"),
    };
    value.map_err(|e| os_error(&e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memberships_read_as_prim_inet_writes_them() {
        let mut v4 = vec![code::ADD_MEMBERSHIP, 0, 0, 0, 1, 0, 0, 0, 0];
        v4.extend_from_slice(&[239, 1, 2, 3, 127, 0, 0, 1]);
        assert_eq!(
            parse(&v4),
            Ok(vec![(
                code::ADD_MEMBERSHIP,
                Value::Membership(Membership::V4 {
                    group: Ipv4Addr::new(239, 1, 2, 3),
                    interface: Ipv4Addr::LOCALHOST,
                    index: 0,
                })
            )])
        );
        let mut v6 = vec![code::DROP_MEMBERSHIP, 0, 0, 0, 2, 0, 0, 0, 3];
        v6.extend_from_slice(&[0xff, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
        assert!(matches!(
            parse(&v6).unwrap()[0].1,
            Value::Membership(Membership::V6 { index: 3, .. })
        ));
        assert_eq!(parse(&v4[..12]), Err("einval"));
        assert_eq!(
            parse(&[code::ADD_MEMBERSHIP, 0, 0, 0, 9, 0, 0, 0, 0]),
            Err("einval")
        );
    }

    #[test]
    fn reads_setopts_requests() {
        let data = [
            code::ACTIVE,
            0,
            0,
            0,
            3,
            0xff,
            0xfe,
            code::LINGER,
            0,
            0,
            0,
            1,
            0,
            0,
            0,
            5,
            code::MODE,
            0,
            0,
            0,
            1,
        ];
        assert_eq!(
            parse(&data).unwrap(),
            vec![
                (code::ACTIVE, Value::ActiveCount(-2)),
                (code::LINGER, Value::Linger(true, 5)),
                (code::MODE, Value::Int(1)),
            ]
        );
        assert!(parse(&[code::MODE, 0]).is_err());
    }

    #[test]
    fn counts_active_n_as_erts() {
        let mut o = Options::default();
        let c = o.set(code::ACTIVE, Value::ActiveCount(3), None).unwrap();
        assert!(c.active && !c.passive_message);
        assert_eq!(o.active, Active::Count(3));
        assert_eq!(
            o.set(code::ACTIVE, Value::ActiveCount(32767), None),
            Err("einval")
        );
        let c = o.set(code::ACTIVE, Value::ActiveCount(-3), None).unwrap();
        assert!(c.passive_message);
        assert_eq!(o.active, Active::Passive);
        assert_eq!(
            o.get(code::ACTIVE, None).unwrap(),
            vec![code::ACTIVE, 0, 0, 0, 0]
        );
    }

    #[test]
    fn keeps_socket_options_until_the_socket_exists() {
        let mut o = Options::default();
        let _ = o.set(code::REUSEADDR, Value::Int(1), None).unwrap();
        assert_eq!(o.pending, vec![(code::REUSEADDR, Value::Int(1))]);
        assert_eq!(
            o.get(code::REUSEADDR, None).unwrap(),
            vec![code::REUSEADDR, 0, 0, 0, 1]
        );
        assert_eq!(o.set(77, Value::Int(1), None), Err("einval"));
    }
}
