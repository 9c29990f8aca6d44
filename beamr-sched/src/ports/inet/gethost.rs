//! `inet_gethost`, erts's host name resolver program, native: kernel's
//! `inet_gethost_native` opens `{spawn_executable, BinDir/inet_gethost}`
//! with `{packet, 4}` and sends it requests; beamr answers them itself
//! (the program of an OTP installed elsewhere may not even run here).
//!
//! ```text
//! request:  RID:32  1 (by name):8  Proto:8  Name  0      Proto 1: inet, 2: inet6
//!           RID:32  2 (by addr):8  Proto:8  Address (4 or 16 bytes)
//!           RID:32  3 (cancel):8             (no answer)
//!           RID:32  4 (control):8  ...       (no answer)
//! answer:   RID:32  Unit:8  Count:32  Address*Count  Names:32  (Name 0)*Names
//!           RID:32  0  Error (nxdomain, ...)
//!           Unit 4 (inet) or 16 (inet6)
//! ```
//!
//! Names are looked up with the system's resolver (`getaddrinfo`, as the
//! program does), each on a thread of its own, so a slow lookup holds
//! nothing up. An answer lists no names: `inet_gethost_native` then
//! names the host as it was asked. Lookups by address answer `enotsup`.

use std::net::{IpAddr, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::runtime::{Port, PortDriver, Runtime};

const OP_GETHOSTBYNAME: u8 = 1;
const OP_GETHOSTBYADDR: u8 = 2;
const PROTO_IPV6: u8 = 2;
const UNIT_ERROR: u8 = 0;

/// The native resolver behind one port.
pub struct GetHost {
    id: Term,
    rt: Weak<Runtime>,
    stopped: Arc<AtomicBool>,
}

/// Whether `file` names erts's resolver program.
pub fn is_gethost(file: &str) -> bool {
    std::path::Path::new(file)
        .file_name()
        .is_some_and(|n| n == "inet_gethost")
}

/// Opens the resolver for `owner`; `None` with the port table full or
/// the runtime gone.
pub fn open(rt: &Runtime, owner: Term, file: &str) -> Option<Term> {
    let weak = rt.weak_self.get()?.clone();
    let id = rt.ports.new_id().ok()?;
    let driver = GetHost {
        id,
        rt: weak,
        stopped: Arc::new(AtomicBool::new(false)),
    };
    let mut port = Port::new(id, file.to_string(), owner, None);
    port.driver = Some(Arc::new(driver));
    rt.insert_port(Arc::new(port));
    Some(id)
}

/// The answer (after the request id) to a lookup of `name`.
fn by_name(name: &str, inet6: bool) -> Vec<u8> {
    let found: Vec<IpAddr> = match (name, 0).to_socket_addrs() {
        Ok(addrs) => addrs.map(|a| a.ip()).collect(),
        Err(_) => Vec::new(),
    };
    let mut unique: Vec<IpAddr> = Vec::new();
    for ip in found {
        if ip.is_ipv6() == inet6 && !unique.contains(&ip) {
            unique.push(ip);
        }
    }
    if unique.is_empty() {
        let mut out = vec![UNIT_ERROR];
        out.extend_from_slice(b"nxdomain");
        return out;
    }
    let mut out = vec![if inet6 { 16 } else { 4 }];
    out.extend_from_slice(&(unique.len() as u32).to_be_bytes());
    for ip in unique {
        match ip {
            IpAddr::V4(v4) => out.extend_from_slice(&v4.octets()),
            IpAddr::V6(v6) => out.extend_from_slice(&v6.octets()),
        }
    }
    out.extend_from_slice(&0u32.to_be_bytes());
    out
}

impl PortDriver for GetHost {
    fn output(&self, bytes: &[u8]) {
        if bytes.len() < 5 {
            return;
        }
        let (rid, op, rest) = (&bytes[..4], bytes[4], &bytes[5..]);
        let answer = match op {
            OP_GETHOSTBYNAME if !rest.is_empty() => {
                let inet6 = rest[0] == PROTO_IPV6;
                let name = rest[1..].split(|&b| b == 0).next().unwrap_or_default();
                let name = String::from_utf8_lossy(name).into_owned();
                Some((name, inet6))
            }
            OP_GETHOSTBYADDR => None,
            // Cancel and control requests have no answer.
            _ => return,
        };
        let (id, rt, stopped, rid) = (self.id, self.rt.clone(), self.stopped.clone(), rid.to_vec());
        std::thread::spawn(move || {
            let mut reply = rid;
            match answer {
                Some((name, inet6)) => reply.extend(by_name(&name, inet6)),
                None => {
                    reply.push(UNIT_ERROR);
                    reply.extend_from_slice(b"enotsup");
                }
            }
            let Some(rt) = rt.upgrade() else { return };
            if stopped.load(Ordering::Acquire) {
                return;
            }
            if let Some(port) = rt.ports.get(id) {
                rt.port_deliver(&port, reply.len(), |h| {
                    let data = h.binary(&reply);
                    let tag = Term::atom(Atom::DATA);
                    let inner = h.tuple(&[tag, data]);
                    h.tuple(&[id, inner])
                });
            }
        });
    }

    fn control(&self, _command: u32, _data: &[u8]) -> Option<(Vec<u8>, bool)> {
        None
    }

    fn stop(&self, _reason: Term) {
        self.stopped.store(true, Ordering::Release);
    }

    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::Acquire)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_localhost_and_fails_a_bad_name() {
        let answer = by_name("localhost", false);
        assert_eq!(answer[0], 4);
        let count = u32::from_be_bytes(answer[1..5].try_into().unwrap()) as usize;
        assert!(answer[5..5 + 4 * count]
            .chunks(4)
            .any(|ip| ip == [127, 0, 0, 1]));
        assert_eq!(by_name("no-such-host.invalid", false)[0], UNIT_ERROR);
        assert!(is_gethost("/usr/lib/erlang/erts-13.1.5/bin/inet_gethost"));
        assert!(!is_gethost("/bin/inet_gethostx"));
    }
}
