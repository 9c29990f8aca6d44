//! Distribution, erts's native side: what OTP's own `net_kernel`,
//! `dist_util`, `inet_tcp_dist` and `erl_epmd` (run unchanged as bytecode)
//! ask of the runtime.
//!
//! - [`flags`]: the distribution flags this node speaks and
//!   `erts_internal:get_dflags/0`'s answer;
//! - [`node`]: the local node's name and creation (`erlang:setnode/2`),
//!   kept in beamr-core so that the External Term Format encodes local
//!   pids, ports and references with them.
//!
//! - [`table`]: the distribution entries, one per node connecting or
//!   connected, with the links and monitors across each;
//! - [`connection`]: a connection's life, from `auto_connect` to
//!   `nodedown`, and the socket's sink;
//! - [`wire`]: the frames (pass-through, no atom cache) and the control
//!   messages' operations;
//! - [`incoming`]: what a peer's control messages do here;
//! - [`outgoing`]: what local processes send to other nodes;
//! - [`spawn`]: spawn requests across nodes, both ways;
//! - [`nodes_monitor`]: `net_kernel:monitor_nodes/1,2`'s subscriptions
//!   and their `nodeup`/`nodedown` messages.
//!
//! Messages carry `seq_trace` tokens both ways (`SEND_TT`,
//! `SEND_SENDER_TT`, `REG_SEND_TT`, `ALIAS_SEND_TT`), and so do exit
//! signals that come in (`EXIT_TT`, `EXIT2_TT` and their payload forms).
//!
//! Not yet here: the atom cache and fragments (not advertised), a process
//! as distribution controller (`dist_ctrl_*`), spawn request options but
//! `link` and `monitor`, and the tokens of exit signals that go out.

pub mod connection;
pub mod flags;
pub mod incoming;
pub mod node;
pub mod nodes_monitor;
pub mod outgoing;
pub mod spawn;
pub mod table;
pub mod wire;
