//! `Stop`: a clean `init:stop/0`. The reply is written first (init halts
//! the OS process, which would cut the connection); then the server calls
//! [`stop`].

use beamr_sched::runtime::Runtime;

use crate::agent;

/// Starts `init:stop/0` in a process of the runtime.
pub fn stop(rt: &Runtime) -> Result<(), String> {
    agent::cast(rt, "stop", |_| Vec::new())
}
