//! The host's network interfaces, as inet_drv answers `INET_REQ_GETIFADDRS`
//! (`inet:getifaddrs/0`), `INET_REQ_GETIFLIST` (`inet:getiflist/0`) and
//! `INET_REQ_IFGET` (`inet:ifget/2,3`).
//!
//! ```text
//! getifaddrs reply: per address of getifaddrs(3), in its order:
//!   Name 0  Opt...  0
//!   Opt: 6 (flags)     Flags:32           INET_IFF_* bits
//!        1 (addr)      Family Ip          family 1: 4 bytes, 2: 16 bytes
//!        5 (netmask)   Family Ip
//!        2 (broadaddr) Family Ip          with IFF_BROADCAST
//!        3 (dstaddr)   Family Ip          with IFF_POINTOPOINT
//!        7 (hwaddr)    Len:16 Bytes       a link-layer (AF_PACKET) address
//! getiflist reply: the names of the interfaces with an IPv4 address,
//!   each followed by 0
//! ifget request: Len Name Opt...; reply: per option asked, in its order,
//!   Opt Value as above (4, mtu: Mtu:32), an option the interface lacks
//!   left out, as erts's ioctls leave it out
//! ```
//!
//! `prim_inet` merges the entries of one interface into its
//! `{Name, [{flags, ...}, {addr, ...}, ...]}`.

use nix::ifaddrs::getifaddrs;
use nix::net::if_::InterfaceFlags;
use nix::sys::socket::{SockaddrLike, SockaddrStorage};

use super::wire;

/// `INET_IFOPT_*` codes.
mod opt {
    pub const ADDR: u8 = 1;
    pub const BROADADDR: u8 = 2;
    pub const DSTADDR: u8 = 3;
    pub const MTU: u8 = 4;
    pub const NETMASK: u8 = 5;
    pub const FLAGS: u8 = 6;
    pub const HWADDR: u8 = 7;
}

/// The `INET_IFF_*` bits of `flags`.
fn flag_bits(flags: InterfaceFlags) -> u32 {
    let mut bits = 0;
    for (os, bit) in [
        (InterfaceFlags::IFF_UP, 0x01),
        (InterfaceFlags::IFF_BROADCAST, 0x02),
        (InterfaceFlags::IFF_LOOPBACK, 0x04),
        (InterfaceFlags::IFF_POINTOPOINT, 0x08),
        (InterfaceFlags::IFF_RUNNING, 0x10),
        (InterfaceFlags::IFF_MULTICAST, 0x20),
    ] {
        if flags.contains(os) {
            bits |= bit;
        }
    }
    bits
}

/// An IP address as family and bytes; `None` for other families.
fn ip_bytes(addr: &SockaddrStorage) -> Option<Vec<u8>> {
    if let Some(v4) = addr.as_sockaddr_in() {
        let mut out = vec![wire::AF_INET];
        out.extend_from_slice(&v4.ip().octets());
        return Some(out);
    }
    if let Some(v6) = addr.as_sockaddr_in6() {
        let mut out = vec![wire::AF_INET6];
        out.extend_from_slice(&v6.ip().octets());
        return Some(out);
    }
    None
}

/// A link-layer address's bytes, as many as its length says (at most
/// the six an Ethernet address has).
fn link_bytes(addr: &SockaddrStorage) -> Option<Vec<u8>> {
    let link = addr.as_link_addr()?;
    let bytes = link.addr()?;
    let len = link.halen().min(bytes.len());
    Some(bytes[..len].to_vec())
}

/// The `GETIFADDRS` reply: `Ok` bytes, or the errno's name.
pub fn getifaddrs_reply() -> Result<Vec<u8>, &'static str> {
    let addrs = getifaddrs().map_err(|e| crate::ports::errno_name(e as i32))?;
    let mut out = Vec::new();
    for ifa in addrs {
        out.extend_from_slice(ifa.interface_name.as_bytes());
        out.push(0);
        out.push(opt::FLAGS);
        out.extend_from_slice(&flag_bits(ifa.flags).to_be_bytes());
        if let Some(addr) = &ifa.address {
            if let Some(ip) = ip_bytes(addr) {
                out.push(opt::ADDR);
                out.extend_from_slice(&ip);
                if let Some(mask) = ifa.netmask.as_ref().and_then(ip_bytes) {
                    out.push(opt::NETMASK);
                    out.extend_from_slice(&mask);
                }
                let other = if ifa.flags.contains(InterfaceFlags::IFF_BROADCAST) {
                    ifa.broadcast.as_ref().map(|a| (opt::BROADADDR, a))
                } else if ifa.flags.contains(InterfaceFlags::IFF_POINTOPOINT) {
                    ifa.destination.as_ref().map(|a| (opt::DSTADDR, a))
                } else {
                    None
                };
                if let Some((code, ip)) = other.and_then(|(c, a)| Some((c, ip_bytes(a)?))) {
                    out.push(code);
                    out.extend_from_slice(&ip);
                }
            } else if let Some(hw) = link_bytes(addr) {
                out.push(opt::HWADDR);
                out.extend_from_slice(&(hw.len() as u16).to_be_bytes());
                out.extend_from_slice(&hw);
            }
        }
        out.push(0);
    }
    Ok(out)
}

/// One interface as erts's `SIOCGIF*` ioctls see it.
#[derive(Default)]
struct Interface {
    flags: u32,
    /// Its first IPv4 address, netmask, broadcast and destination.
    v4: Option<[[u8; 4]; 4]>,
    hwaddr: Option<Vec<u8>>,
    mtu: Option<i32>,
}

fn v4_octets(addr: Option<&SockaddrStorage>) -> Option<[u8; 4]> {
    Some(addr?.as_sockaddr_in()?.ip().octets())
}

/// `name`'s interface; all empty when there is none.
fn interface(name: &str) -> Result<Interface, &'static str> {
    let mut found = Interface::default();
    let addrs = getifaddrs().map_err(|e| crate::ports::errno_name(e as i32))?;
    for ifa in addrs.filter(|ifa| ifa.interface_name == name) {
        found.flags = flag_bits(ifa.flags);
        let address = ifa.address.as_ref();
        if let Some(addr) = v4_octets(address) {
            if found.v4.is_none() {
                let mask = v4_octets(ifa.netmask.as_ref()).unwrap_or_default();
                let p2p = ifa.flags.contains(InterfaceFlags::IFF_POINTOPOINT);
                // Linux answers SIOCGIFDSTADDR with the address itself on
                // an interface that is not point-to-point, and
                // SIOCGIFBRDADDR with 0.0.0.0 where there is no broadcast.
                let (broadcast, destination) = if p2p {
                    ([0; 4], v4_octets(ifa.destination.as_ref()).unwrap_or(addr))
                } else {
                    (v4_octets(ifa.broadcast.as_ref()).unwrap_or_default(), addr)
                };
                found.v4 = Some([addr, mask, broadcast, destination]);
            }
        } else if let Some(hw) = address.and_then(link_bytes) {
            found.hwaddr = Some(hw);
        }
    }
    // A name with a path in it names no interface.
    if !name.is_empty() && !name.contains('/') && name != "." && name != ".." {
        found.mtu = std::fs::read_to_string(format!("/sys/class/net/{name}/mtu"))
            .ok()
            .and_then(|t| t.trim().parse().ok());
    }
    Ok(found)
}

/// The `IFGET` reply to `data` (the name, then the options asked): `Ok`
/// bytes, or the errno's name.
pub fn ifget_reply(data: &[u8]) -> Result<Vec<u8>, &'static str> {
    let (&len, rest) = data.split_first().ok_or("einval")?;
    let len = usize::from(len);
    if rest.len() < len {
        return Err("einval");
    }
    let (name, options) = rest.split_at(len);
    let name = std::str::from_utf8(name).map_err(|_| "einval")?;
    let it = interface(name)?;
    let mut out = Vec::new();
    let v4 = |out: &mut Vec<u8>, code: u8, which: usize| {
        if let Some(addrs) = it.v4 {
            out.push(code);
            out.push(wire::AF_INET);
            out.extend_from_slice(&addrs[which]);
        }
    };
    for &code in options {
        match code {
            opt::ADDR => v4(&mut out, code, 0),
            opt::NETMASK => v4(&mut out, code, 1),
            opt::BROADADDR => v4(&mut out, code, 2),
            opt::DSTADDR => v4(&mut out, code, 3),
            opt::MTU => {
                if let Some(mtu) = it.mtu {
                    out.push(code);
                    out.extend_from_slice(&mtu.to_be_bytes());
                }
            }
            opt::FLAGS => {
                out.push(code);
                out.extend_from_slice(&it.flags.to_be_bytes());
            }
            opt::HWADDR => {
                if let Some(hw) = &it.hwaddr {
                    out.push(code);
                    out.extend_from_slice(&(hw.len() as u16).to_be_bytes());
                    out.extend_from_slice(hw);
                }
            }
            _ => return Err("einval"),
        }
    }
    Ok(out)
}

/// The `GETIFLIST` reply: `Ok` bytes, or the errno's name.
pub fn getiflist_reply() -> Result<Vec<u8>, &'static str> {
    let addrs = getifaddrs().map_err(|e| crate::ports::errno_name(e as i32))?;
    let mut out = Vec::new();
    for ifa in addrs {
        let v4 = ifa
            .address
            .as_ref()
            .is_some_and(|a| a.family() == Some(nix::sys::socket::AddressFamily::Inet));
        if v4 {
            out.extend_from_slice(ifa.interface_name.as_bytes());
            out.push(0);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ifget_answers_in_the_order_asked_and_refuses_bad_requests() {
        let mut ask = vec![2];
        ask.extend_from_slice(b"lo");
        ask.extend_from_slice(&[opt::FLAGS, opt::ADDR]);
        let reply = ifget_reply(&ask).expect("ifget lo");
        assert_eq!(reply[0], opt::FLAGS);
        let flags = u32::from_be_bytes([reply[1], reply[2], reply[3], reply[4]]);
        assert_eq!(flags & 0x04, 0x04, "loopback");
        assert_eq!(&reply[5..], &[opt::ADDR, wire::AF_INET, 127, 0, 0, 1]);
        assert_eq!(ifget_reply(&[5, b'l', b'o']), Err("einval"));
        assert_eq!(ifget_reply(&[]), Err("einval"));
        assert_eq!(ifget_reply(&[2, b'l', b'o', 99]), Err("einval"));
        // No such interface: flags alone, empty.
        let none = ifget_reply(&[3, b'n', b'o', b'x', opt::MTU, opt::FLAGS]).unwrap();
        assert_eq!(none, [opt::FLAGS, 0, 0, 0, 0]);
    }

    #[test]
    fn the_loopback_interface_is_listed_up() {
        let reply = getifaddrs_reply().expect("getifaddrs");
        let mut lo = b"lo\0".to_vec();
        lo.push(opt::FLAGS);
        let at = reply
            .windows(lo.len())
            .position(|w| w == lo.as_slice())
            .expect("an entry for lo");
        let bits = u32::from_be_bytes(reply[at + 4..at + 8].try_into().unwrap());
        assert_eq!(bits & 0x05, 0x05, "up and loopback");
        let list = getiflist_reply().expect("getiflist");
        assert!(list.split(|&b| b == 0).any(|name| name == b"lo"));
    }
}
