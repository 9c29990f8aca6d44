//! erts's inet drivers, native: `tcp_inet` (and the part of `udp_inet`
//! that `inet:gethostname/0` and kernel's boot use), so that OTP's own
//! `gen_tcp`, `inet_tcp` and `prim_inet` run unchanged on top of them.
//!
//! `prim_inet` opens one with `open_port({spawn_driver, "tcp_inet"},
//! [binary])` and talks to it in inet_drv's protocol: requests by
//! `port_control/3` ([`wire`]), data by `port_command/2`, answers as
//! `inet_async` and `inet_reply` messages ([`outbox`]).
//!
//! - [`socket`]: the port's state and its requests;
//! - `stream`: connecting, accepting, reading and writing;
//! - [`options`]: the options of `setopts` and `getopts`;
//! - [`packet`]: the `packet` option's framing;
//! - [`packet_parser`]: erts's packet parser, which `packet` and
//!   `erlang:decode_packet/3` share;
//! - [`poller`]: the one I/O thread every socket waits on;
//! - [`dist_channel`]: a socket carrying a distribution connection;
//! - [`gethost`]: erts's resolver program, which kernel's
//!   `inet_gethost_native` runs for host names.
//!
//! - `conn`: a connection, listener or datagram socket over IP or a
//!   Unix-domain socket (`{local, Path}` addresses), and their addresses;
//! - `dgram`: UDP's datagrams (`udp_inet`): sending, receiving,
//!   connecting;
//! - [`ifaddrs`]: the host's interfaces (`inet:getifaddrs/0`,
//!   `getiflist/0`, `ifget/2,3`);
//!
//! Not here: SCTP, `sendfile`, `inet:ifset/3` (`enotsup`).

mod conn;
mod dgram;
pub mod dist_channel;
pub mod gethost;
pub mod ifaddrs;
pub mod options;
pub mod outbox;
pub mod packet;
pub mod packet_parser;
pub mod poller;
pub mod socket;
mod stream;
pub mod wire;

use std::sync::Arc;

use beamr_core::term::Term;

use crate::process::Exception;
use crate::runtime::{Port, PortDriver, Runtime};

pub use socket::InetPort;

/// Opens `{spawn_driver, Name}` for `owner`: `"tcp_inet"` or
/// `"udp_inet"`; any other driver name is `badarg`, as erts answers a
/// driver it does not have.
pub fn open(rt: &Runtime, owner: Term, name: &str) -> Result<Term, Exception> {
    let udp = match name {
        "tcp_inet" => false,
        "udp_inet" => true,
        _ => return Err(Exception::badarg()),
    };
    let weak = rt.weak_self.get().cloned().ok_or_else(Exception::badarg)?;
    let id = rt.ports.new_id()?;
    let driver = InetPort::new(id, weak, udp);
    let mut port = Port::new(id, name.to_string(), owner, None);
    port.driver = Some(driver as Arc<dyn PortDriver>);
    rt.insert_port(Arc::new(port));
    Ok(id)
}
