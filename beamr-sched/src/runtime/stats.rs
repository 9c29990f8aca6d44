//! [`RuntimeStats`]: a snapshot of the runtime for metrics (a backend
//! samples it at an interval, as beamr-otel's snapshot sampler does).

use std::sync::atomic::{AtomicU64, Ordering};

use crossbeam_utils::CachePadded;

use super::Runtime;

/// Slots of [`ReductionCounter`]: scheduler `s` adds to slot `s % SLOTS`.
const SLOTS: usize = 64;

/// Reductions executed, one cache line per scheduler so that counting
/// after every slice never contends: [`Runtime::stats`] sums the slots.
pub(crate) struct ReductionCounter([CachePadded<AtomicU64>; SLOTS]);

impl Default for ReductionCounter {
    fn default() -> ReductionCounter {
        ReductionCounter(std::array::from_fn(|_| CachePadded::new(AtomicU64::new(0))))
    }
}

impl ReductionCounter {
    fn add(&self, scheduler: usize, n: u64) {
        self.0[scheduler % SLOTS].fetch_add(n, Ordering::Relaxed);
    }

    fn total(&self) -> u64 {
        self.0.iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }

    fn of(&self, scheduler: usize) -> u64 {
        self.0[scheduler % SLOTS].load(Ordering::Relaxed)
    }
}

/// One scheduler's running totals and queue, as
/// [`Runtime::scheduler_snapshots`] reads them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SchedulerSnapshot {
    /// Reductions it executed since the runtime started (shared with any
    /// scheduler whose number is the same modulo 64).
    pub reductions: u64,
    /// Nanoseconds it slept for want of work since it started.
    pub idle_ns: u64,
    /// Tasks waiting in its own run queue now.
    pub run_queue: u64,
}

/// What the runtime looks like at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuntimeStats {
    /// Processes alive.
    pub processes: u64,
    /// Tasks waiting in each scheduler's own run queue, scheduler 1 first
    /// (tasks in the shared queue, not yet taken by any scheduler, are not
    /// counted).
    pub run_queue_lengths: Vec<u64>,
    /// Reductions executed since the runtime started (counted at the end of
    /// each time slice, so it only grows).
    pub reductions: u64,
    /// Words of process heaps (young, old and fragments) of the processes
    /// that were not running when looked at.
    pub heap_words: u64,
    /// The message-queue length of every process that was not running when
    /// looked at.
    pub message_queue_lengths: Vec<u64>,
    /// Per scheduler, scheduler 1 first, the nanoseconds it slept for want
    /// of work since it started (`RunQueues::idle_ns`).
    pub scheduler_idle_ns: Vec<u64>,
}

impl Runtime {
    /// Counts `n` more reductions executed (the scheduler calls this after
    /// each slice).
    #[inline]
    pub fn count_reductions(&self, n: u64) {
        let scheduler = crate::trace::scheduler_id() as usize;
        self.reductions.add(scheduler, n);
    }

    /// Per scheduler, scheduler 1 first, its totals and queue, without
    /// looking at any process: cheap enough to take every few
    /// milliseconds (the flight recorder's counters).
    pub fn scheduler_snapshots(&self) -> Vec<SchedulerSnapshot> {
        let queues = self.run_queues.lengths();
        let idle = self.run_queues.idle_ns();
        (0..queues.len().max(idle.len()))
            .map(|i| SchedulerSnapshot {
                reductions: self.reductions.of(i + 1),
                idle_ns: idle.get(i).copied().unwrap_or(0),
                run_queue: queues.get(i).copied().unwrap_or(0),
            })
            .collect()
    }

    /// A snapshot. It never waits for a running process: one that is
    /// running (its body locked) is left out of the heap and queue figures.
    pub fn stats(&self) -> RuntimeStats {
        let mut stats = RuntimeStats {
            processes: self.processes.len() as u64,
            run_queue_lengths: self.run_queues.lengths(),
            reductions: self.reductions.total(),
            scheduler_idle_ns: self.run_queues.idle_ns(),
            ..RuntimeStats::default()
        };
        for pid in self.processes.pids() {
            let Some(handle) = self.processes.get(pid) else {
                continue;
            };
            let Ok(body) = handle.body.try_lock() else {
                continue;
            };
            if let Some(p) = body.as_ref() {
                stats.heap_words += p.heap.used_words() as u64;
                stats.message_queue_lengths.push(p.mailbox.len() as u64);
            }
        }
        stats
    }
}
