//! `Stats`: counts against limits and memory by kind (from
//! `erlang:system_info/1` and `erlang:memory/0`, run by the agent, so the
//! numbers are the ones the program itself would read), run-queue lengths
//! and reductions (from the runtime's own counters).

use beamr_core::term::Term;
use beamr_sched::runtime::Runtime;

use super::failed;
use crate::agent;
use crate::protocol::{Reply, Stats, Usage};

/// The statistics.
pub fn stats(rt: &Runtime) -> Reply {
    let value = match agent::call(rt, "system", |_| Vec::new()) {
        Ok(v) => v,
        Err(e) => return failed(e),
    };
    let Some(&[counts, memory]) = value.term().as_tuple() else {
        return failed("the agent's system/0 answered no {Counts, Memory}");
    };
    let counts = pairs(counts);
    let get = |key: &str| counts.iter().find(|(k, _)| k == key).map_or(0, |&(_, n)| n);
    let usage = |what: &str| Usage {
        count: get(&format!("{what}_count")),
        limit: get(&format!("{what}_limit")),
    };
    let own = rt.stats();
    Reply::Stats(Stats {
        processes: usage("process"),
        ports: usage("port"),
        atoms: usage("atom"),
        ets_tables: usage("ets"),
        memory: pairs(memory),
        run_queues: own.run_queue_lengths,
        reductions: own.reductions,
        uptime_ms: u64::try_from(rt.started.elapsed().as_millis()).unwrap_or(u64::MAX),
    })
}

/// `[{Atom, Integer}]` as pairs; other elements are left out.
fn pairs(list: Term) -> Vec<(String, u64)> {
    list.iter_list()
        .filter_map(|pair| match pair.as_tuple() {
            Some(&[k, v]) => Some((
                k.as_atom()?.name().to_string(),
                u64::try_from(v.as_small()?).ok()?,
            )),
            _ => None,
        })
        .collect()
}
