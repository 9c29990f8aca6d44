//! The byte protocol between `prim_inet` and the inet drivers, as
//! `inet_int.hrl` defines it: request numbers, reply codes, and the
//! encoding of addresses and times.
//!
//! ```text
//! port_control(S, ?MAGIC + Request, Data)   ?MAGIC = 16#03f1a300
//!   reply [?INET_REP_OK    | Bytes]       (1)
//!         [?INET_REP_ERROR | "errno"]     (0, then the error's name)
//!
//! address (bind, connect):
//!   Family:8  Port:16  Ip          Family 1 (inet): 4 bytes
//!                                  Family 2 (inet6): 16 bytes, then
//!                                    flowinfo:32, scope_id:32
//!                                  Family 3 (any), 4 (loopback): none
//! address (peername, sockname replies):
//!   Family:8  Port:16  Ip (4 or 16 bytes)
//! time: a signed 32-bit count of milliseconds, -1 for infinity
//! ```
//!
//! Every integer is big-endian.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

/// What `prim_inet:ctl_cmd/3` adds to every request number.
pub const CONTROL_MAGIC: u32 = 0x03f1_a300;

/// Reply code: an error, its name follows.
pub const REP_ERROR: u8 = 0;
/// Reply code: success, the reply's bytes follow.
pub const REP_OK: u8 = 1;

/// `INET_AF_INET`.
pub const AF_INET: u8 = 1;
/// `INET_AF_INET6`.
pub const AF_INET6: u8 = 2;
/// `INET_AF_ANY`: the wildcard address of the socket's family.
pub const AF_ANY: u8 = 3;
/// `INET_AF_LOOPBACK`: the loopback address of the socket's family.
pub const AF_LOOPBACK: u8 = 4;

/// `INET_AF_LOCAL`: a Unix-domain path (length byte, then the path).
pub const AF_LOCAL: u8 = 5;

/// `INET_TYPE_STREAM`.
pub const TYPE_STREAM: u8 = 1;
/// `INET_TYPE_DGRAM`.
pub const TYPE_DGRAM: u8 = 2;

/// The requests the drivers answer (`INET_REQ_*`, `TCP_REQ_*`).
pub mod req {
    /// Creates the socket: family, type, protocol.
    pub const OPEN: u32 = 1;
    /// Closes it.
    pub const CLOSE: u32 = 2;
    /// Connects: time, address; the result comes as `inet_async`.
    pub const CONNECT: u32 = 3;
    /// The peer's address.
    pub const PEER: u32 = 4;
    /// The socket's own address.
    pub const NAME: u32 = 5;
    /// Binds: address; replies the port bound.
    pub const BIND: u32 = 6;
    /// Sets options.
    pub const SETOPTS: u32 = 7;
    /// Reads options.
    pub const GETOPTS: u32 = 8;
    /// Statistics.
    pub const GETSTAT: u32 = 11;
    /// The host's name.
    pub const GETHOSTNAME: u32 = 12;
    /// The OS file descriptor.
    pub const GETFD: u32 = 14;
    /// Family and type.
    pub const GETTYPE: u32 = 15;
    /// The state flags (`INET_F_*`).
    pub const GETSTATUS: u32 = 16;
    /// The names of the interfaces with an IPv4 address.
    pub const GETIFLIST: u32 = 21;
    /// One interface's settings (`inet:ifget/2,3`).
    pub const IFGET: u32 = 22;
    /// The interfaces and their addresses.
    pub const GETIFADDRS: u32 = 25;
    /// Event subscriptions (`subs_empty_out_q`).
    pub const SUBSCRIBE: u32 = 24;
    /// Accepts: time; the new socket comes as `inet_async`.
    pub const ACCEPT: u32 = 26;
    /// Listens: backlog.
    pub const LISTEN: u32 = 27;
    /// Stops using the file descriptor (`ignorefd`).
    pub const IGNOREFD: u32 = 28;
    /// Receives: time, length; the data comes as `inet_async`.
    pub const RECV: u32 = 42;
    /// Puts data back in front of the receive buffer.
    pub const UNRECV: u32 = 43;
    /// Shuts a direction down: 0 read, 1 write, 2 both.
    pub const SHUTDOWN: u32 = 44;
    /// Receives a datagram (UDP): time, length.
    pub const PACKET_RECV: u32 = 60;
}

/// The state flags `GETSTATUS` answers (`INET_F_*`).
pub mod flag {
    /// The socket exists.
    pub const OPEN: u32 = 0x0001;
    /// It is bound.
    pub const BOUND: u32 = 0x0002;
    /// It is connected.
    pub const ACTIVE: u32 = 0x0004;
    /// It listens.
    pub const LISTEN: u32 = 0x0008;
    /// A connect is under way.
    pub const CON: u32 = 0x0010;
    /// An accept is under way.
    pub const ACC: u32 = 0x0020;
}

/// A successful reply with `bytes`.
pub fn ok(bytes: &[u8]) -> Vec<u8> {
    let mut reply = Vec::with_capacity(1 + bytes.len());
    reply.push(REP_OK);
    reply.extend_from_slice(bytes);
    reply
}

/// An error reply naming `errno` (`"einval"`).
pub fn error(errno: &str) -> Vec<u8> {
    let mut reply = vec![REP_ERROR];
    reply.extend_from_slice(errno.as_bytes());
    reply
}

/// Reads the big-endian integers of a request, failing (`None`) past
/// its end.
pub struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    /// Reads `bytes`.
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.bytes.len() < n {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    /// One byte.
    pub fn u8(&mut self) -> Option<u8> {
        self.take(1).map(|b| b[0])
    }

    /// A 16-bit integer.
    pub fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_be_bytes([b[0], b[1]]))
    }

    /// A signed 16-bit integer.
    pub fn i16(&mut self) -> Option<i16> {
        self.u16().map(|n| n as i16)
    }

    /// A 32-bit integer.
    pub fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A signed 32-bit integer.
    pub fn i32(&mut self) -> Option<i32> {
        self.u32().map(|n| n as i32)
    }

    /// What is left.
    pub fn rest(&mut self) -> &'a [u8] {
        std::mem::take(&mut self.bytes)
    }

    /// True when everything was read.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
}

/// A time in a request: `None` for infinity (any negative count).
pub fn time(r: &mut Reader<'_>) -> Option<Option<Duration>> {
    let ms = r.i32()?;
    Some(u64::try_from(ms).ok().map(Duration::from_millis))
}

/// An address in a bind or connect request, for a socket of family
/// `inet6` (else inet); `None` when malformed.
pub fn address(r: &mut Reader<'_>, inet6: bool) -> Option<SocketAddr> {
    let family = r.u8()?;
    let port = r.u16()?;
    let ip: IpAddr = match family {
        AF_INET => {
            let b = r.take(4)?;
            Ipv4Addr::new(b[0], b[1], b[2], b[3]).into()
        }
        AF_INET6 => {
            let b: [u8; 16] = r.take(16)?.try_into().ok()?;
            // flowinfo and scope_id follow; beamr keeps neither.
            let _ = r.take(8);
            Ipv6Addr::from(b).into()
        }
        AF_ANY if inet6 => Ipv6Addr::UNSPECIFIED.into(),
        AF_ANY => Ipv4Addr::UNSPECIFIED.into(),
        AF_LOOPBACK if inet6 => Ipv6Addr::LOCALHOST.into(),
        AF_LOOPBACK => Ipv4Addr::LOCALHOST.into(),
        _ => return None,
    };
    Some(SocketAddr::new(ip, port))
}

/// The path of a Unix-domain address in a bind or connect request, when
/// the address is one (its family byte `AF_LOCAL` is next); `None` else,
/// with nothing read.
pub fn local_path(r: &mut Reader<'_>) -> Option<Result<Vec<u8>, ()>> {
    if r.bytes.first() != Some(&AF_LOCAL) {
        return None;
    }
    r.u8();
    let path = r
        .u8()
        .and_then(|n| r.take(usize::from(n)))
        .map(<[u8]>::to_vec)
        .ok_or(());
    Some(path)
}

/// A Unix-domain address as a sockname or peername reply encodes it.
pub fn encode_local(path: &[u8]) -> Vec<u8> {
    let mut out = vec![AF_LOCAL, path.len().min(255) as u8];
    out.extend_from_slice(&path[..path.len().min(255)]);
    out
}

/// `addr` as a peername or sockname reply encodes it.
pub fn encode_address(addr: SocketAddr) -> Vec<u8> {
    let mut out = Vec::with_capacity(19);
    match addr.ip() {
        IpAddr::V4(ip) => {
            out.push(AF_INET);
            out.extend_from_slice(&addr.port().to_be_bytes());
            out.extend_from_slice(&ip.octets());
        }
        IpAddr::V6(ip) => {
            out.push(AF_INET6);
            out.extend_from_slice(&addr.port().to_be_bytes());
            out.extend_from_slice(&ip.octets());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_address_forms() {
        let mut r = Reader::new(&[AF_INET, 0x12, 0x34, 127, 0, 0, 1]);
        assert_eq!(
            address(&mut r, false),
            Some("127.0.0.1:4660".parse().unwrap())
        );
        let mut r = Reader::new(&[AF_ANY, 0, 80]);
        assert_eq!(address(&mut r, false), Some("0.0.0.0:80".parse().unwrap()));
        let mut r = Reader::new(&[AF_LOOPBACK, 0, 0]);
        assert_eq!(address(&mut r, true), Some("[::1]:0".parse().unwrap()));
        let mut r = Reader::new(&[AF_INET, 0]);
        assert_eq!(address(&mut r, false), None);
    }

    #[test]
    fn encodes_names_and_times() {
        let addr: SocketAddr = "10.1.2.3:258".parse().unwrap();
        assert_eq!(encode_address(addr), vec![AF_INET, 1, 2, 10, 1, 2, 3]);
        assert_eq!(time(&mut Reader::new(&[255, 255, 255, 255])), Some(None));
        assert_eq!(
            time(&mut Reader::new(&[0, 0, 1, 0])),
            Some(Some(Duration::from_millis(256)))
        );
        assert_eq!(error("closed"), b"\0closed".to_vec());
    }

    #[test]
    fn reads_and_encodes_local_paths() {
        let mut r = Reader::new(&[AF_LOCAL, 3, b'/', b'a', b'b', 9]);
        assert_eq!(local_path(&mut r), Some(Ok(b"/ab".to_vec())));
        assert_eq!(r.u8(), Some(9), "what follows the path stays");
        let mut short = Reader::new(&[AF_LOCAL, 4, b'/']);
        assert_eq!(local_path(&mut short), Some(Err(())));
        let mut ip = Reader::new(&[AF_INET, 0, 1, 127, 0, 0, 1]);
        assert_eq!(local_path(&mut ip), None);
        assert_eq!(ip.u8(), Some(AF_INET), "an IP address is left unread");
        assert_eq!(encode_local(b"/s"), vec![AF_LOCAL, 2, b'/', b's']);
    }
}
