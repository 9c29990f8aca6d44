//! `Info`: one process's `process_info/2` items, its stack trace and its
//! first queued messages, read by the agent (`process_info/2` itself).

use beamr_sched::runtime::Runtime;

use super::failed;
use crate::agent;
use crate::protocol::{InfoItem, Reply};

/// The items of `process` (a pid `<0.N.0>` or a registered name).
pub fn info(rt: &Runtime, process: &str) -> Reply {
    let value = match agent::call(rt, "info", |heap| vec![heap.binary(process.as_bytes())]) {
        Ok(v) => v,
        Err(e) => return failed(e),
    };
    let items = value
        .term()
        .iter_list()
        .filter_map(|pair| match pair.as_tuple() {
            Some(&[k, v]) => Some(InfoItem {
                key: k.as_atom()?.name().to_string(),
                value: agent::text_of(v)?,
            }),
            _ => None,
        })
        .collect();
    Reply::Info(items)
}
