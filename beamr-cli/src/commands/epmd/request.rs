//! The EPMD protocol's requests and replies, as the distribution protocol
//! documentation of erts specifies them. Every request comes as a 2-byte
//! big-endian length, then that many bytes: a tag, then its fields.
//! Decoding never panics: a malformed request is an error naming what is
//! wrong.

use std::fmt;

/// `ALIVE2_REQ`: a node registers; the connection stays open while it
/// lives.
pub const ALIVE2_REQ: u8 = 120;
/// `ALIVE2_X_RESP`: the answer with a 32-bit creation (OTP 23 and later).
pub const ALIVE2_X_RESP: u8 = 118;
/// `ALIVE2_RESP`: the answer with a 16-bit creation, to a node whose
/// highest distribution version is below 6.
pub const ALIVE2_RESP: u8 = 121;
/// `PORT_PLEASE2_REQ`: where a node listens.
pub const PORT_PLEASE2_REQ: u8 = 122;
/// `PORT2_RESP`: its answer.
pub const PORT2_RESP: u8 = 119;
/// `NAMES_REQ`: every registered node.
pub const NAMES_REQ: u8 = 110;
/// `DUMP_REQ`: every registered node, for debugging.
pub const DUMP_REQ: u8 = 100;
/// `KILL_REQ`: stop the daemon.
pub const KILL_REQ: u8 = 107;
/// `STOP_REQ`: unregister a node by name (`epmd -stop`).
pub const STOP_REQ: u8 = 115;

/// The longest node name epmd takes (erts's `MAXSYMLEN`).
pub const MAX_NAME: usize = 255;

/// What a node registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registration {
    /// The port its distribution listens on.
    pub port: u16,
    /// 77 for a normal node, 72 for a hidden one.
    pub node_type: u8,
    /// 0: TCP/IPv4.
    pub protocol: u8,
    /// The highest distribution version it speaks.
    pub highest: u16,
    /// The lowest.
    pub lowest: u16,
    /// The name before the `@`.
    pub name: String,
    /// The extra field, kept and given back as it came.
    pub extra: Vec<u8>,
}

/// One request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `ALIVE2_REQ`.
    Alive2(Registration),
    /// `PORT_PLEASE2_REQ` for a name.
    PortPlease2(String),
    /// `NAMES_REQ`.
    Names,
    /// `DUMP_REQ`.
    Dump,
    /// `KILL_REQ`.
    Kill,
    /// `STOP_REQ` for a name.
    Stop(String),
}

/// Why a request could not be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed(pub String);

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Reads fields off a request's bytes.
struct Fields<'a> {
    bytes: &'a [u8],
    what: &'static str,
}

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize, field: &str) -> Result<&'a [u8], Malformed> {
        if self.bytes.len() < n {
            return Err(Malformed(format!(
                "{}: truncated at its {field} ({} bytes left, {n} needed)",
                self.what,
                self.bytes.len()
            )));
        }
        let (taken, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(taken)
    }

    fn u8(&mut self, field: &str) -> Result<u8, Malformed> {
        Ok(self.take(1, field)?[0])
    }

    fn u16(&mut self, field: &str) -> Result<u16, Malformed> {
        let b = self.take(2, field)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    fn name(&mut self, bytes: &'a [u8]) -> Result<String, Malformed> {
        if bytes.is_empty() || bytes.len() > MAX_NAME {
            return Err(Malformed(format!(
                "{}: a node name of {} bytes (1 to {MAX_NAME})",
                self.what,
                bytes.len()
            )));
        }
        String::from_utf8(bytes.to_vec())
            .map_err(|_| Malformed(format!("{}: a node name that is not UTF-8", self.what)))
    }
}

/// Decodes a request's bytes (after its length).
pub fn decode(bytes: &[u8]) -> Result<Request, Malformed> {
    let Some((&tag, body)) = bytes.split_first() else {
        return Err(Malformed("an empty request".into()));
    };
    match tag {
        ALIVE2_REQ => {
            let mut f = Fields {
                bytes: body,
                what: "ALIVE2_REQ",
            };
            let port = f.u16("port")?;
            let node_type = f.u8("node type")?;
            let protocol = f.u8("protocol")?;
            let highest = f.u16("highest version")?;
            let lowest = f.u16("lowest version")?;
            let length = usize::from(f.u16("name length")?);
            let name_bytes = f.take(length, "name")?;
            let name = f.name(name_bytes)?;
            let extra_length = usize::from(f.u16("extra length")?);
            let extra = f.take(extra_length, "extra")?.to_vec();
            if !f.bytes.is_empty() {
                return Err(Malformed(format!(
                    "ALIVE2_REQ: {} bytes after its extra field",
                    f.bytes.len()
                )));
            }
            Ok(Request::Alive2(Registration {
                port,
                node_type,
                protocol,
                highest,
                lowest,
                name,
                extra,
            }))
        }
        PORT_PLEASE2_REQ | STOP_REQ => {
            let mut f = Fields {
                bytes: body,
                what: if tag == STOP_REQ {
                    "STOP_REQ"
                } else {
                    "PORT_PLEASE2_REQ"
                },
            };
            let name = f.name(body)?;
            Ok(if tag == STOP_REQ {
                Request::Stop(name)
            } else {
                Request::PortPlease2(name)
            })
        }
        NAMES_REQ | DUMP_REQ | KILL_REQ if !body.is_empty() => Err(Malformed(format!(
            "request {tag}: {} bytes where none belong",
            body.len()
        ))),
        NAMES_REQ => Ok(Request::Names),
        DUMP_REQ => Ok(Request::Dump),
        KILL_REQ => Ok(Request::Kill),
        other => Err(Malformed(format!("an unknown request (tag {other})"))),
    }
}

/// The answer to an `ALIVE2_REQ`: `result` 0 is success.
pub fn alive2_reply(highest: u16, result: u8, creation: u32) -> Vec<u8> {
    if highest >= 6 {
        let mut out = vec![ALIVE2_X_RESP, result];
        out.extend_from_slice(&creation.to_be_bytes());
        out
    } else {
        let mut out = vec![ALIVE2_RESP, result];
        // Old nodes take creations 1 to 3.
        out.extend_from_slice(&((creation % 3 + 1) as u16).to_be_bytes());
        out
    }
}

/// The answer to a `PORT_PLEASE2_REQ`: the registration, or `None` for
/// a name not registered.
pub fn port2_reply(found: Option<&Registration>) -> Vec<u8> {
    let Some(r) = found else {
        return vec![PORT2_RESP, 1];
    };
    let mut out = vec![PORT2_RESP, 0];
    out.extend_from_slice(&r.port.to_be_bytes());
    out.push(r.node_type);
    out.push(r.protocol);
    out.extend_from_slice(&r.highest.to_be_bytes());
    out.extend_from_slice(&r.lowest.to_be_bytes());
    // A name is at most MAX_NAME bytes, an extra field came with a u16
    // length: both fit.
    out.extend_from_slice(&(r.name.len() as u16).to_be_bytes());
    out.extend_from_slice(r.name.as_bytes());
    out.extend_from_slice(&(r.extra.len() as u16).to_be_bytes());
    out.extend_from_slice(&r.extra);
    out
}

/// The answer to a `NAMES_REQ` (`epmd_port` first, then a line per node,
/// as erts's epmd writes them).
pub fn names_reply(epmd_port: u16, nodes: &[(String, u16)]) -> Vec<u8> {
    let mut out = u32::from(epmd_port).to_be_bytes().to_vec();
    for (name, port) in nodes {
        out.extend_from_slice(format!("name {name} at port {port}\n").as_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn alive2(name: &str, highest: u16) -> Vec<u8> {
        let mut b = vec![ALIVE2_REQ];
        b.extend_from_slice(&4370u16.to_be_bytes());
        b.extend_from_slice(&[77, 0]);
        b.extend_from_slice(&highest.to_be_bytes());
        b.extend_from_slice(&5u16.to_be_bytes());
        b.extend_from_slice(&(name.len() as u16).to_be_bytes());
        b.extend_from_slice(name.as_bytes());
        b.extend_from_slice(&[0, 1, 9]);
        b
    }

    #[test]
    fn a_registration_decodes_and_its_port_reply_gives_it_back() {
        let Ok(Request::Alive2(r)) = decode(&alive2("foo", 6)) else {
            panic!("not an ALIVE2_REQ");
        };
        assert_eq!(
            (r.port, r.name.as_str(), r.extra.as_slice()),
            (4370, "foo", &[9][..])
        );
        let reply = port2_reply(Some(&r));
        assert_eq!(reply[..4], [PORT2_RESP, 0, 0x11, 0x12]);
        assert_eq!(&reply[reply.len() - 3..], &[0, 1, 9]);
        assert_eq!(port2_reply(None), [PORT2_RESP, 1]);
    }

    #[test]
    fn the_creation_is_32_bits_from_version_6_on() {
        assert_eq!(
            alive2_reply(6, 0, 0x0102_0304),
            [ALIVE2_X_RESP, 0, 1, 2, 3, 4]
        );
        assert_eq!(alive2_reply(5, 0, 7), [ALIVE2_RESP, 0, 0, 2]);
    }

    #[test]
    fn malformed_requests_are_named() {
        let whole = alive2("foo", 6);
        for cut in 1..whole.len() {
            let e = decode(&whole[..cut]).unwrap_err();
            assert!(e.0.starts_with("ALIVE2_REQ: "), "{e}");
        }
        assert!(decode(&[]).unwrap_err().0.contains("empty"));
        assert!(decode(&[3])
            .unwrap_err()
            .0
            .contains("unknown request (tag 3)"));
        assert!(decode(&[NAMES_REQ, 0])
            .unwrap_err()
            .0
            .contains("none belong"));
        assert!(decode(&[PORT_PLEASE2_REQ])
            .unwrap_err()
            .0
            .contains("0 bytes"));
        let long = vec![b'a'; MAX_NAME + 1];
        let mut req = vec![PORT_PLEASE2_REQ];
        req.extend_from_slice(&long);
        assert!(decode(&req).unwrap_err().0.contains("256 bytes"));
    }

    #[test]
    fn names_are_listed_as_erts_lists_them() {
        let reply = names_reply(4369, &[("a".into(), 1234)]);
        assert_eq!(&reply[..4], &[0, 0, 0x11, 0x11]);
        assert_eq!(&reply[4..], b"name a at port 1234\n");
    }
}
