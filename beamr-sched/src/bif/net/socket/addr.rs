//! Socket addresses as the `socket` module writes them, and the OS's:
//!
//! ```text
//! #{family => inet,  port => P, addr => {A, B, C, D} | any | loopback | broadcast}
//! #{family => inet6, port => P, addr => {A, ..., H} | any | loopback,
//!   flowinfo => F, scope_id => S}
//! #{family => local, path => Binary}
//! ```
//!
//! `prim_socket:enc_sockaddr/1` has already merged the defaults in and
//! turned a `local` path into a binary; what is left to check here is
//! the values.

use std::ffi::OsStr;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::os::unix::ffi::OsStrExt;

use beamr_core::heap::Heap;
use beamr_core::term::Term;
use socket2::SockAddr;

use super::{int, small};
use crate::bif::common::atoms::atom;

/// The address map `t` as the OS's, or `None` when a value is not one
/// erts accepts (the NIF's `{invalid, sockaddr}`).
pub(super) fn decode(t: Term) -> Option<SockAddr> {
    let get = |key: &str| beamr_core::map::get(t, atom(key));
    match get("family")?.as_atom()?.name() {
        "inet" => {
            let port = port(get("port")?)?;
            let ip = match get("addr")? {
                a if a == atom("any") => Ipv4Addr::UNSPECIFIED,
                a if a == atom("loopback") => Ipv4Addr::LOCALHOST,
                a if a == atom("broadcast") => Ipv4Addr::BROADCAST,
                a => {
                    let parts = tuple_of(a, 4, 255)?;
                    Ipv4Addr::new(
                        parts[0] as u8,
                        parts[1] as u8,
                        parts[2] as u8,
                        parts[3] as u8,
                    )
                }
            };
            Some(SocketAddr::V4(SocketAddrV4::new(ip, port)).into())
        }
        "inet6" => {
            let port = port(get("port")?)?;
            let ip = match get("addr")? {
                a if a == atom("any") => Ipv6Addr::UNSPECIFIED,
                a if a == atom("loopback") => Ipv6Addr::LOCALHOST,
                a => {
                    let p = tuple_of(a, 8, 65535)?;
                    let s = |i: usize| p[i] as u16;
                    Ipv6Addr::new(s(0), s(1), s(2), s(3), s(4), s(5), s(6), s(7))
                }
            };
            let flowinfo = u32::try_from(int(get("flowinfo")?)?).ok()?;
            let scope_id = u32::try_from(int(get("scope_id")?)?).ok()?;
            Some(SocketAddr::V6(SocketAddrV6::new(ip, port, flowinfo, scope_id)).into())
        }
        "local" => {
            let path = get("path")?;
            let bytes = path.as_binary()?;
            if !bytes.is_binary() {
                return None;
            }
            let bytes = bytes.to_vec();
            SockAddr::unix(OsStr::from_bytes(&bytes)).ok()
        }
        _ => None,
    }
}

fn port(t: Term) -> Option<u16> {
    u16::try_from(int(t)?).ok()
}

/// The `n` integers of tuple `t`, each from 0 to `max`.
fn tuple_of(t: Term, n: usize, max: i64) -> Option<Vec<i64>> {
    let items = t.as_tuple()?;
    if items.len() != n {
        return None;
    }
    items
        .iter()
        .map(|i| int(*i).filter(|v| (0..=max).contains(v)))
        .collect()
}

/// The address map for `addr`, built on `h`.
pub(super) fn encode(h: &mut Heap, addr: &SockAddr) -> Term {
    if let Some(sa) = addr.as_socket() {
        return match sa {
            SocketAddr::V4(v4) => {
                let o = v4.ip().octets();
                let ip: Vec<Term> = o.iter().map(|&b| small(i64::from(b))).collect();
                let ip = h.tuple(&ip);
                let pairs = [
                    (atom("family"), atom("inet")),
                    (atom("port"), small(i64::from(v4.port()))),
                    (atom("addr"), ip),
                ];
                beamr_core::map::from_pairs(h, &pairs)
            }
            SocketAddr::V6(v6) => {
                let s = v6.ip().segments();
                let ip: Vec<Term> = s.iter().map(|&x| small(i64::from(x))).collect();
                let ip = h.tuple(&ip);
                let pairs = [
                    (atom("family"), atom("inet6")),
                    (atom("port"), small(i64::from(v6.port()))),
                    (atom("addr"), ip),
                    (atom("flowinfo"), small(i64::from(v6.flowinfo()))),
                    (atom("scope_id"), small(i64::from(v6.scope_id()))),
                ];
                beamr_core::map::from_pairs(h, &pairs)
            }
        };
    }
    let path: Vec<u8> = if let Some(p) = addr.as_pathname() {
        p.as_os_str().as_bytes().to_vec()
    } else if let Some(name) = addr.as_abstract_namespace() {
        let mut v = vec![0];
        v.extend_from_slice(name);
        v
    } else {
        Vec::new()
    };
    let path = h.binary(&path);
    let pairs = [(atom("family"), atom("local")), (atom("path"), path)];
    beamr_core::map::from_pairs(h, &pairs)
}
