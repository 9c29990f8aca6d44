//! `Hello`: who the runtime is.

use beamr_core::atom::Atom;
use beamr_sched::runtime::Runtime;

use crate::agent;

use crate::protocol::{Reply, RuntimeInfo};

/// The runtime's identity; `program` is what the embedder said it runs.
pub fn hello(rt: &Runtime, program: &str) -> Reply {
    Reply::Hello(RuntimeInfo {
        os_pid: std::process::id(),
        program: program.to_string(),
        uptime_ms: u64::try_from(rt.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        beamr_version: env!("CARGO_PKG_VERSION").to_string(),
        otp_release: beamr_sched::code::otp_release(),
        node: node_name(rt),
    })
}

/// `erlang:node/0` (asked of the agent), or empty when not distributed.
fn node_name(rt: &Runtime) -> String {
    if !agent::runtime_ready(rt) {
        return String::new();
    }
    match agent::call(rt, "node", |_| Vec::new()) {
        Ok(v) => match v.term().as_atom() {
            Some(a) if a != Atom::NONODE_NOHOST => a.name().to_string(),
            _ => String::new(),
        },
        Err(_) => String::new(),
    }
}
