//! `State`: a process's state as `sys:get_state/2` gives it, read by the
//! agent with the client's timeout.

use std::time::Duration;

use beamr_core::term::Term;
use beamr_sched::runtime::Runtime;

use super::failed;
use crate::agent;
use crate::protocol::Reply;

/// The state of `process` (a pid `<0.N.0>` or a registered name), asked
/// with a timeout of `timeout_ms` (below the agent's own).
pub fn state(rt: &Runtime, process: &str, timeout_ms: u32) -> Reply {
    let most = agent::TIMEOUT - Duration::from_secs(1);
    let timeout = u32::try_from(most.as_millis())
        .unwrap_or(u32::MAX)
        .min(timeout_ms);
    let asked = agent::call(rt, "state", |heap| {
        vec![
            heap.binary(process.as_bytes()),
            Term::small_unchecked(i64::from(timeout)),
        ]
    });
    match asked {
        Ok(v) => match agent::text_of(v.term()) {
            Some(text) => Reply::State(text),
            None => failed("the agent's state/2 answered no text"),
        },
        Err(e) => failed(e),
    }
}
