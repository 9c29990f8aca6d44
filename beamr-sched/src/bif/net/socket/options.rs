//! Socket options: the table `nif_supports(options)` reports, and
//! `nif_setopt/5` and `nif_getopt/3` over it.
//!
//! `prim_socket` turns `{Level, Name}` into the numbers of this table
//! (the OS's level and option numbers, `socket` for `SOL_SOCKET`), so the
//! NIF sees `(socket | LevelNumber, OptionNumber)`. The `otp` level is
//! erts's own (`{otp, controlling_process}`, `{otp, rcvbuf}`, ...), with
//! numbers from 1001. An option outside the table is the NIF's `{invalid,
//! socket_option}`; a value of the wrong shape is `{invalid, value}`.

use std::time::Duration;

use beamr_core::heap::Heap;
use beamr_core::term::Term;
use socket2::{Socket, TcpKeepalive};

use super::{int, small};
use crate::bif::common::atoms::atom;

/// One level's options: the name erts gives each, and its number.
type Table = &'static [(&'static str, i32)];

/// `SOL_SOCKET` options: the name erts gives each, and its number.
const SOCKET: Table = &[
    ("acceptconn", libc::SO_ACCEPTCONN),
    ("broadcast", libc::SO_BROADCAST),
    ("domain", libc::SO_DOMAIN),
    ("keepalive", libc::SO_KEEPALIVE),
    ("linger", libc::SO_LINGER),
    ("oobinline", libc::SO_OOBINLINE),
    ("priority", libc::SO_PRIORITY),
    ("protocol", libc::SO_PROTOCOL),
    ("rcvbuf", libc::SO_RCVBUF),
    ("reuseaddr", libc::SO_REUSEADDR),
    ("reuseport", libc::SO_REUSEPORT),
    ("sndbuf", libc::SO_SNDBUF),
    ("type", libc::SO_TYPE),
];

/// `IPPROTO_IP` options.
const IP: Table = &[
    ("multicast_loop", libc::IP_MULTICAST_LOOP),
    ("multicast_ttl", libc::IP_MULTICAST_TTL),
    ("tos", libc::IP_TOS),
    ("ttl", libc::IP_TTL),
];

/// `IPPROTO_IPV6` options.
const IPV6: Table = &[
    ("multicast_hops", libc::IPV6_MULTICAST_HOPS),
    ("multicast_loop", libc::IPV6_MULTICAST_LOOP),
    ("unicast_hops", libc::IPV6_UNICAST_HOPS),
    ("v6only", libc::IPV6_V6ONLY),
];

/// `IPPROTO_TCP` options.
const TCP: Table = &[
    ("cork", libc::TCP_CORK),
    ("keepcnt", libc::TCP_KEEPCNT),
    ("keepidle", libc::TCP_KEEPIDLE),
    ("keepintvl", libc::TCP_KEEPINTVL),
    ("maxseg", libc::TCP_MAXSEG),
    ("nodelay", libc::TCP_NODELAY),
    ("user_timeout", libc::TCP_USER_TIMEOUT),
];

/// erts's own options (`ESOCK_OPT_OTP_*`).
pub(super) mod otp {
    /// `{otp, debug}`.
    pub const DEBUG: i64 = 1001;
    /// `{otp, iow}`.
    pub const IOW: i64 = 1002;
    /// `{otp, controlling_process}`.
    pub const CTRL_PROC: i64 = 1003;
    /// `{otp, rcvbuf}`.
    pub const RCVBUF: i64 = 1004;
    /// `{otp, rcvctrlbuf}`.
    pub const RCVCTRLBUF: i64 = 1006;
    /// `{otp, sndctrlbuf}`.
    pub const SNDCTRLBUF: i64 = 1007;
    /// `{otp, fd}`.
    pub const FD: i64 = 1008;
    /// `{otp, meta}`.
    pub const META: i64 = 1009;
    /// `{otp, use_registry}`.
    pub const USE_REGISTRY: i64 = 1010;
    /// `{otp, domain}`.
    pub const DOMAIN: i64 = 1999;
}

/// `nif_supports(options)`. Before OTP 26 `[{socket, [{Name, Number}]},
/// {LevelNumber, [...]}]` (`prim_socket` finds each level's names in its
/// protocol table); from OTP 28 on `{LevelName, LevelNumber, [...]}`.
pub(super) fn supports(h: &mut Heap) -> Term {
    let levels: [(&str, Term, Table); 5] = [
        ("socket", atom("socket"), SOCKET),
        ("ip", small(i64::from(libc::IPPROTO_IP)), IP),
        ("ipv6", small(i64::from(libc::IPPROTO_IPV6)), IPV6),
        ("tcp", small(i64::from(libc::IPPROTO_TCP)), TCP),
        ("udp", small(i64::from(libc::IPPROTO_UDP)), &[]),
    ];
    let named = beamr_core::release::otp_release() >= 28;
    let mut items = Vec::new();
    for (name, level, options) in levels {
        let opts: Vec<Term> = options
            .iter()
            .map(|&(name, n)| h.tuple(&[atom(name), small(i64::from(n))]))
            .collect();
        let opts = h.list(&opts);
        items.push(if named {
            h.tuple(&[atom(name), level, opts])
        } else {
            h.tuple(&[level, opts])
        });
    }
    h.list(&items)
}

/// Which option `(level, option)` names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Level {
    /// `SOL_SOCKET`.
    Socket,
    /// `IPPROTO_IP`, `IPPROTO_IPV6`, `IPPROTO_TCP`, `IPPROTO_UDP`.
    Protocol(i32),
}

/// The level term of a `nif_setopt`/`nif_getopt` call, less `otp`.
pub(super) fn level(t: Term) -> Option<Level> {
    if t == atom("socket") {
        return Some(Level::Socket);
    }
    let n = i32::try_from(int(t)?).ok()?;
    Some(if n == libc::SOL_SOCKET {
        Level::Socket
    } else {
        Level::Protocol(n)
    })
}

/// Why a set or get did not happen.
pub(super) enum Refused {
    /// Not an option of the table (`{invalid, socket_option}`).
    Option,
    /// A value of the wrong shape (`{invalid, value}`).
    Value,
    /// The OS refused it.
    Os(std::io::Error),
}

impl From<std::io::Error> for Refused {
    fn from(e: std::io::Error) -> Refused {
        Refused::Os(e)
    }
}

fn boolean(v: Term) -> Result<bool, Refused> {
    match v {
        v if v == Term::TRUE => Ok(true),
        v if v == Term::FALSE => Ok(false),
        _ => Err(Refused::Value),
    }
}

fn integer(v: Term) -> Result<i64, Refused> {
    int(v).ok_or(Refused::Value)
}

fn unsigned<T: TryFrom<i64>>(v: Term) -> Result<T, Refused> {
    T::try_from(integer(v)?).map_err(|_| Refused::Value)
}

/// Sets option `opt` of `level` on `s` to `v`.
pub(super) fn set(s: &Socket, level: Level, opt: i32, v: Term) -> Result<(), Refused> {
    use libc::*;
    match (level, opt) {
        (Level::Socket, SO_BROADCAST) => s.set_broadcast(boolean(v)?)?,
        (Level::Socket, SO_KEEPALIVE) => s.set_keepalive(boolean(v)?)?,
        (Level::Socket, SO_LINGER) => s.set_linger(linger(v)?)?,
        (Level::Socket, SO_OOBINLINE) => s.set_out_of_band_inline(boolean(v)?)?,
        (Level::Socket, SO_PRIORITY) => s.set_priority(unsigned(v)?)?,
        (Level::Socket, SO_RCVBUF) => s.set_recv_buffer_size(unsigned(v)?)?,
        (Level::Socket, SO_REUSEADDR) => s.set_reuse_address(boolean(v)?)?,
        (Level::Socket, SO_REUSEPORT) => s.set_reuse_port(boolean(v)?)?,
        (Level::Socket, SO_SNDBUF) => s.set_send_buffer_size(unsigned(v)?)?,
        (Level::Socket, SO_ACCEPTCONN | SO_DOMAIN | SO_PROTOCOL | SO_TYPE) => {
            return Err(Refused::Os(std::io::Error::from_raw_os_error(ENOPROTOOPT)))
        }
        (Level::Protocol(IPPROTO_IP), IP_MULTICAST_LOOP) => s.set_multicast_loop_v4(boolean(v)?)?,
        (Level::Protocol(IPPROTO_IP), IP_MULTICAST_TTL) => s.set_multicast_ttl_v4(unsigned(v)?)?,
        (Level::Protocol(IPPROTO_IP), IP_TOS) => s.set_tos_v4(unsigned(v)?)?,
        (Level::Protocol(IPPROTO_IP), IP_TTL) => s.set_ttl_v4(unsigned(v)?)?,
        (Level::Protocol(IPPROTO_IPV6), IPV6_MULTICAST_HOPS) => {
            s.set_multicast_hops_v6(unsigned(v)?)?
        }
        (Level::Protocol(IPPROTO_IPV6), IPV6_MULTICAST_LOOP) => {
            s.set_multicast_loop_v6(boolean(v)?)?
        }
        (Level::Protocol(IPPROTO_IPV6), IPV6_UNICAST_HOPS) => {
            s.set_unicast_hops_v6(unsigned(v)?)?
        }
        (Level::Protocol(IPPROTO_IPV6), IPV6_V6ONLY) => s.set_only_v6(boolean(v)?)?,
        (Level::Protocol(IPPROTO_TCP), TCP_CORK) => s.set_tcp_cork(boolean(v)?)?,
        (Level::Protocol(IPPROTO_TCP), TCP_KEEPCNT) => {
            s.set_tcp_keepalive(&TcpKeepalive::new().with_retries(unsigned(v)?))?
        }
        (Level::Protocol(IPPROTO_TCP), TCP_KEEPIDLE) => {
            s.set_tcp_keepalive(&TcpKeepalive::new().with_time(Duration::from_secs(unsigned(v)?)))?
        }
        (Level::Protocol(IPPROTO_TCP), TCP_KEEPINTVL) => s.set_tcp_keepalive(
            &TcpKeepalive::new().with_interval(Duration::from_secs(unsigned(v)?)),
        )?,
        (Level::Protocol(IPPROTO_TCP), TCP_MAXSEG) => s.set_tcp_mss(unsigned(v)?)?,
        (Level::Protocol(IPPROTO_TCP), TCP_NODELAY) => s.set_tcp_nodelay(boolean(v)?)?,
        (Level::Protocol(IPPROTO_TCP), TCP_USER_TIMEOUT) => {
            let ms: u64 = unsigned(v)?;
            s.set_tcp_user_timeout((ms > 0).then(|| Duration::from_millis(ms)))?
        }
        _ => return Err(Refused::Option),
    }
    Ok(())
}

/// `#{onoff => Bool, linger => Seconds}` (or `abort`, erts's shorthand
/// for an immediate reset) as the OS's linger.
fn linger(v: Term) -> Result<Option<Duration>, Refused> {
    if v == atom("abort") {
        return Ok(Some(Duration::ZERO));
    }
    let onoff = beamr_core::map::get(v, atom("onoff")).ok_or(Refused::Value)?;
    let secs = beamr_core::map::get(v, atom("linger")).ok_or(Refused::Value)?;
    let secs: u64 = unsigned(secs)?;
    Ok(boolean(onoff)?.then(|| Duration::from_secs(secs)))
}

/// The value of option `opt` of `level` on `s`, built on `h`.
pub(super) fn get(h: &mut Heap, s: &Socket, level: Level, opt: i32) -> Result<Term, Refused> {
    use libc::*;
    let b = |v: bool| if v { Term::TRUE } else { Term::FALSE };
    let n = |v: u64| small(v as i64);
    Ok(match (level, opt) {
        (Level::Socket, SO_ACCEPTCONN) => b(s.is_listener()?),
        (Level::Socket, SO_BROADCAST) => b(s.broadcast()?),
        (Level::Socket, SO_DOMAIN) => domain_name(i32::from(s.domain()?)),
        (Level::Socket, SO_KEEPALIVE) => b(s.keepalive()?),
        (Level::Socket, SO_LINGER) => {
            let l = s.linger()?;
            let pairs = [
                (atom("onoff"), b(l.is_some())),
                (atom("linger"), n(l.map_or(0, |d| d.as_secs()))),
            ];
            beamr_core::map::from_pairs(h, &pairs)
        }
        (Level::Socket, SO_OOBINLINE) => b(s.out_of_band_inline()?),
        (Level::Socket, SO_PRIORITY) => n(u64::from(s.priority()?)),
        (Level::Socket, SO_PROTOCOL) => match s.protocol()? {
            Some(p) => small(i64::from(i32::from(p))),
            None => small(0),
        },
        (Level::Socket, SO_RCVBUF) => n(s.recv_buffer_size()? as u64),
        (Level::Socket, SO_REUSEADDR) => b(s.reuse_address()?),
        (Level::Socket, SO_REUSEPORT) => b(s.reuse_port()?),
        (Level::Socket, SO_SNDBUF) => n(s.send_buffer_size()? as u64),
        (Level::Socket, SO_TYPE) => type_name(i32::from(s.r#type()?)),
        (Level::Protocol(IPPROTO_IP), IP_MULTICAST_LOOP) => b(s.multicast_loop_v4()?),
        (Level::Protocol(IPPROTO_IP), IP_MULTICAST_TTL) => n(u64::from(s.multicast_ttl_v4()?)),
        (Level::Protocol(IPPROTO_IP), IP_TOS) => n(u64::from(s.tos_v4()?)),
        (Level::Protocol(IPPROTO_IP), IP_TTL) => n(u64::from(s.ttl_v4()?)),
        (Level::Protocol(IPPROTO_IPV6), IPV6_MULTICAST_HOPS) => {
            n(u64::from(s.multicast_hops_v6()?))
        }
        (Level::Protocol(IPPROTO_IPV6), IPV6_MULTICAST_LOOP) => b(s.multicast_loop_v6()?),
        (Level::Protocol(IPPROTO_IPV6), IPV6_UNICAST_HOPS) => n(u64::from(s.unicast_hops_v6()?)),
        (Level::Protocol(IPPROTO_IPV6), IPV6_V6ONLY) => b(s.only_v6()?),
        (Level::Protocol(IPPROTO_TCP), TCP_CORK) => b(s.tcp_cork()?),
        (Level::Protocol(IPPROTO_TCP), TCP_KEEPCNT) => n(u64::from(s.tcp_keepalive_retries()?)),
        (Level::Protocol(IPPROTO_TCP), TCP_KEEPIDLE) => n(s.tcp_keepalive_time()?.as_secs()),
        (Level::Protocol(IPPROTO_TCP), TCP_KEEPINTVL) => n(s.tcp_keepalive_interval()?.as_secs()),
        (Level::Protocol(IPPROTO_TCP), TCP_MAXSEG) => n(u64::from(s.tcp_mss()?)),
        (Level::Protocol(IPPROTO_TCP), TCP_NODELAY) => b(s.tcp_nodelay()?),
        (Level::Protocol(IPPROTO_TCP), TCP_USER_TIMEOUT) => {
            n(s.tcp_user_timeout()?.map_or(0, |d| d.as_millis() as u64))
        }
        _ => return Err(Refused::Option),
    })
}

/// erts's name for domain `d` (`inet`, `inet6`, `local`), or the number.
pub(super) fn domain_name(d: i32) -> Term {
    match d {
        libc::AF_INET => atom("inet"),
        libc::AF_INET6 => atom("inet6"),
        libc::AF_UNIX => atom("local"),
        libc::AF_UNSPEC => atom("unspec"),
        n => small(i64::from(n)),
    }
}

/// erts's name for socket type `t` (`stream`, `dgram`, ...), or the number.
pub(super) fn type_name(t: i32) -> Term {
    match t {
        libc::SOCK_STREAM => atom("stream"),
        libc::SOCK_DGRAM => atom("dgram"),
        libc::SOCK_SEQPACKET => atom("seqpacket"),
        libc::SOCK_RAW => atom("raw"),
        libc::SOCK_RDM => atom("rdm"),
        n => small(i64::from(n)),
    }
}
