//! `Hello`: who the runtime is.

use beamr_sched::runtime::Runtime;

use crate::protocol::{Reply, RuntimeInfo};

/// The runtime's identity; `program` is what the embedder said it runs.
pub fn hello(rt: &Runtime, program: &str) -> Reply {
    Reply::Hello(RuntimeInfo {
        os_pid: std::process::id(),
        program: program.to_string(),
        uptime_ms: u64::try_from(rt.started.elapsed().as_millis()).unwrap_or(u64::MAX),
        beamr_version: env!("CARGO_PKG_VERSION").to_string(),
        otp_release: beamr_sched::code::otp_release(),
    })
}
