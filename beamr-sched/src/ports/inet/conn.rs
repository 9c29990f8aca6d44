//! A stream socket's connection and listener, over TCP or a Unix-domain
//! socket (`{local, Path}` addresses), so that connecting, accepting,
//! reading and writing are the same code for both; and the addresses of
//! either as `prim_inet` reads them.

use std::io::{Read, Write};
use std::os::fd::{AsFd, BorrowedFd};
use std::os::unix::ffi::OsStrExt;

use mio::event::Source;
use mio::{Interest, Registry, Token};
use socket2::{SockAddr, Socket};

use super::wire;

/// A connected (or connecting) stream.
pub enum Conn {
    /// Over TCP.
    Tcp(mio::net::TcpStream),
    /// Over a Unix-domain socket.
    Unix(mio::net::UnixStream),
}

/// A listening socket.
pub enum Listener {
    /// Over TCP.
    Tcp(mio::net::TcpListener),
    /// Over a Unix-domain socket.
    Unix(mio::net::UnixListener),
}

impl Conn {
    /// The stream of an opened socket of the family `local` says.
    pub fn from_socket(socket: Socket, local: bool) -> Conn {
        if local {
            Conn::Unix(mio::net::UnixStream::from_std(socket.into()))
        } else {
            Conn::Tcp(mio::net::TcpStream::from_std(socket.into()))
        }
    }
}

impl Listener {
    /// The listener of an opened, listening socket.
    pub fn from_socket(socket: Socket, local: bool) -> Listener {
        if local {
            Listener::Unix(mio::net::UnixListener::from_std(socket.into()))
        } else {
            Listener::Tcp(mio::net::TcpListener::from_std(socket.into()))
        }
    }

    /// The next waiting connection.
    pub fn accept(&self) -> std::io::Result<Conn> {
        match self {
            Listener::Tcp(l) => l.accept().map(|(s, _)| Conn::Tcp(s)),
            Listener::Unix(l) => l.accept().map(|(s, _)| Conn::Unix(s)),
        }
    }
}

impl AsFd for Conn {
    fn as_fd(&self) -> BorrowedFd<'_> {
        match self {
            Conn::Tcp(s) => s.as_fd(),
            Conn::Unix(s) => s.as_fd(),
        }
    }
}

impl AsFd for Listener {
    fn as_fd(&self) -> BorrowedFd<'_> {
        match self {
            Listener::Tcp(l) => l.as_fd(),
            Listener::Unix(l) => l.as_fd(),
        }
    }
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Conn::Tcp(s) => s.read(buf),
            Conn::Unix(s) => s.read(buf),
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Conn::Tcp(s) => s.write(buf),
            Conn::Unix(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Conn::Tcp(s) => s.flush(),
            Conn::Unix(s) => s.flush(),
        }
    }
}

/// Delegates mio's registration to the socket inside (`$ip`: the name
/// of the enum's IP variant).
macro_rules! delegate_source {
    ($ty:ident, $ip:ident) => {
        impl Source for $ty {
            fn register(&mut self, r: &Registry, t: Token, i: Interest) -> std::io::Result<()> {
                match self {
                    $ty::$ip(s) => s.register(r, t, i),
                    $ty::Unix(s) => s.register(r, t, i),
                }
            }

            fn reregister(&mut self, r: &Registry, t: Token, i: Interest) -> std::io::Result<()> {
                match self {
                    $ty::$ip(s) => s.reregister(r, t, i),
                    $ty::Unix(s) => s.reregister(r, t, i),
                }
            }

            fn deregister(&mut self, r: &Registry) -> std::io::Result<()> {
                match self {
                    $ty::$ip(s) => s.deregister(r),
                    $ty::Unix(s) => s.deregister(r),
                }
            }
        }
    };
}

delegate_source!(Conn, Tcp);
delegate_source!(Listener, Tcp);

/// `addr` as a peername or sockname reply encodes it: an IP address and
/// port, or `[Local, Length | Path]` for a Unix-domain one (an unnamed
/// socket's path is empty). `None` for another family.
pub fn encode_sockaddr(addr: &SockAddr) -> Option<Vec<u8>> {
    if let Some(ip) = addr.as_socket() {
        return Some(wire::encode_address(ip));
    }
    if addr.is_unix() {
        let path = addr
            .as_pathname()
            .map(|p| p.as_os_str().as_bytes().to_vec())
            .unwrap_or_default();
        return Some(wire::encode_local(&path));
    }
    None
}

/// A datagram socket: UDP, or a Unix-domain datagram socket.
pub enum Dgram {
    /// Over UDP.
    Udp(mio::net::UdpSocket),
    /// Over a Unix-domain socket.
    Unix(mio::net::UnixDatagram),
}

/// Where a datagram came from or goes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Peer {
    /// An IP address and port.
    Ip(std::net::SocketAddr),
    /// A Unix-domain path (empty for an unnamed socket).
    Local(Vec<u8>),
}

impl Peer {
    /// The address as inet_drv encodes it in a reply.
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Peer::Ip(addr) => wire::encode_address(*addr),
            Peer::Local(path) => wire::encode_local(path),
        }
    }
}

/// `err` when a datagram's destination is of the other family.
fn wrong_family() -> std::io::Error {
    std::io::Error::from_raw_os_error(libc::EAFNOSUPPORT)
}

impl Dgram {
    /// The datagram socket of an opened socket of the family `local`
    /// says.
    pub fn from_socket(socket: Socket, local: bool) -> Dgram {
        if local {
            Dgram::Unix(mio::net::UnixDatagram::from_std(socket.into()))
        } else {
            Dgram::Udp(mio::net::UdpSocket::from_std(socket.into()))
        }
    }

    /// Sends `buf` to `to`.
    pub fn send_to(&self, buf: &[u8], to: &Peer) -> std::io::Result<usize> {
        match (self, to) {
            (Dgram::Udp(s), Peer::Ip(addr)) => s.send_to(buf, *addr),
            (Dgram::Unix(s), Peer::Local(path)) => {
                s.send_to(buf, std::ffi::OsStr::from_bytes(path))
            }
            _ => Err(wrong_family()),
        }
    }

    /// Sends `buf` to the connected peer.
    pub fn send(&self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Dgram::Udp(s) => s.send(buf),
            Dgram::Unix(s) => s.send(buf),
        }
    }

    /// Whether the socket is connected.
    pub fn is_connected(&self) -> bool {
        socket2::SockRef::from(self).peer_addr().is_ok()
    }

    /// Connects the socket to `to`.
    pub fn connect(&self, to: &Peer) -> std::io::Result<()> {
        match (self, to) {
            (Dgram::Udp(s), Peer::Ip(addr)) => s.connect(*addr),
            (Dgram::Unix(s), Peer::Local(path)) => s.connect(std::ffi::OsStr::from_bytes(path)),
            _ => Err(wrong_family()),
        }
    }

    /// Receives one datagram into `buf` (cut to its length): the bytes
    /// read and the sender.
    pub fn recv_from(&self, buf: &mut [u8]) -> std::io::Result<(usize, Peer)> {
        match self {
            Dgram::Udp(s) => s.recv_from(buf).map(|(n, a)| (n, Peer::Ip(a))),
            Dgram::Unix(s) => s.recv_from(buf).map(|(n, a)| {
                let path = a
                    .as_pathname()
                    .map(|p| p.as_os_str().as_bytes().to_vec())
                    .unwrap_or_default();
                (n, Peer::Local(path))
            }),
        }
    }
}

impl AsFd for Dgram {
    fn as_fd(&self) -> BorrowedFd<'_> {
        match self {
            Dgram::Udp(s) => s.as_fd(),
            Dgram::Unix(s) => s.as_fd(),
        }
    }
}

delegate_source!(Dgram, Udp);
