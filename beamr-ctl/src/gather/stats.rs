//! `Stats`: counts against limits and memory by kind (from
//! `erlang:system_info/1` and `erlang:memory/0`, run by the agent, so the
//! numbers are the ones the program itself would read), run-queue lengths
//! and reductions (from the runtime's own counters), and rates over an
//! interval: the runtime's counters (reductions, collections, words
//! reclaimed, each scheduler's idle time) are read at its start and end,
//! the server thread sleeping between, as observer_cli's home does.

use std::time::{Duration, Instant};

use beamr_core::heap::gc_totals;
use beamr_core::term::Term;
use beamr_sched::runtime::{Runtime, RuntimeStats};

use super::failed;
use crate::agent;
use crate::protocol::{Reply, Stats, Usage};

/// The longest interval a request may ask for, in milliseconds.
pub const MAX_INTERVAL_MS: u32 = 10_000;

/// The counters read at each end of the interval.
struct Sample {
    at: Instant,
    runtime: RuntimeStats,
    gc: (u64, u64),
}

fn sample(rt: &Runtime) -> Sample {
    Sample {
        at: Instant::now(),
        runtime: rt.stats(),
        gc: gc_totals::totals(),
    }
}

/// `later - earlier` a second, over `seconds`.
fn rate(earlier: u64, later: u64, seconds: f64) -> u64 {
    (later.saturating_sub(earlier) as f64 / seconds).round() as u64
}

/// The statistics, the rates measured over `interval_ms`.
pub fn stats(rt: &Runtime, interval_ms: u32) -> Reply {
    if !(1..=MAX_INTERVAL_MS).contains(&interval_ms) {
        return failed(format!(
            "an interval of {interval_ms} ms: expected 1 to {MAX_INTERVAL_MS}"
        ));
    }
    let first = sample(rt);
    std::thread::sleep(Duration::from_millis(u64::from(interval_ms)));
    let last = sample(rt);
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
    let elapsed = last.at.duration_since(first.at);
    let seconds = elapsed.as_secs_f64().max(1e-9);
    let elapsed_ns = elapsed.as_nanos() as f64;
    let scheduler_utilisation = last
        .runtime
        .scheduler_idle_ns
        .iter()
        .enumerate()
        .map(|(i, &idle)| {
            let before = first.runtime.scheduler_idle_ns.get(i).copied().unwrap_or(0);
            let idle = idle.saturating_sub(before) as f64;
            (1.0 - idle / elapsed_ns).clamp(0.0, 1.0)
        })
        .collect();
    let own = last.runtime;
    Reply::Stats(Stats {
        processes: usage("process"),
        ports: usage("port"),
        atoms: usage("atom"),
        ets_tables: usage("ets"),
        memory: pairs(memory),
        run_queues: own.run_queue_lengths,
        reductions: own.reductions,
        interval_ms,
        reductions_per_second: rate(first.runtime.reductions, own.reductions, seconds),
        gcs_per_second: rate(first.gc.0, last.gc.0, seconds),
        words_reclaimed_per_second: rate(first.gc.1, last.gc.1, seconds),
        scheduler_utilisation,
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
