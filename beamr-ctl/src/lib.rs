//! beamr-ctl: attaching to a running beamr. Every `beamr run` listens on an
//! owner-only Unix-domain socket ([`server`]); `beamr ctl` ([`client`])
//! asks it for statistics, processes, evaluations and code loads in a
//! versioned, length-prefixed protocol ([`protocol`]). An embedder of
//! beamr-sched starts the same server with [`server::start`].
//!
//! The modules form layers; each uses only those below it:
//!
//! ```text
//! server      the listener thread, one session per client
//!  |
//! trace       a client's trace session: its tracer, its start and end
//!  |
//! flight      the flight recorder: its rings, its counters, its dumps
//!  |
//! gather      one module per request: the reply, read from the runtime
//!  |
//! agent       requests run as Erlang code in a fresh process (beamr_ctl_agent)
//!  |
//! client      connecting, one request at a time, finding runtimes
//!  |
//! socket_dir  the private directory, socket names, stale sockets
//!  |
//! protocol    requests, replies, frames
//! ```
#![forbid(unsafe_code)]

pub mod agent;
pub mod client;
pub mod flight;
pub mod gather;
pub mod protocol;
pub mod server;
pub mod socket_dir;
pub mod trace;
