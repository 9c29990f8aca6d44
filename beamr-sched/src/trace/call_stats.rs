//! The counters of `call_count`, `call_time` and `call_memory` trace
//! patterns: how often a function was called, and (per process) how long
//! it ran and how many heap words it allocated.
//!
//! Both may be paused (`erlang:trace_pattern(MFA, pause, [call_count])`),
//! keeping their values, and restarted from zero. They are updated by the
//! calling process on its scheduler thread: the count with one relaxed
//! add, the times under a lock taken only when a traced call returns.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use beamr_core::term::Term;

/// A `call_count` pattern's counter.
#[derive(Debug, Default)]
pub struct CallCount {
    count: AtomicU64,
    paused: AtomicBool,
}

impl CallCount {
    /// One call, unless paused.
    #[inline]
    pub fn hit(&self) {
        if !self.paused.load(Ordering::Relaxed) {
            self.count.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The calls counted.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// Stops counting (`pause`), keeping the count.
    pub fn pause(&self) {
        self.paused.store(true, Ordering::Relaxed);
    }

    /// Counts again from zero (`restart`, or `true` on a running counter).
    pub fn restart(&self) {
        self.count.store(0, Ordering::Relaxed);
        self.paused.store(false, Ordering::Relaxed);
    }
}

/// A `call_time` pattern's counters: per process, the calls and the
/// nanoseconds spent in the function itself (not in the call_time-traced
/// functions it called).
pub type CallTime = CallTotals;

/// A `call_memory` pattern's counters: per process, the calls and the
/// heap words allocated in the function itself (not in the
/// call_memory-traced functions it called).
pub type CallMemory = CallTotals;

/// Per process: calls, and a total measured over them (nanoseconds for
/// `call_time`, words for `call_memory`).
#[derive(Debug, Default)]
pub struct CallTotals {
    per_process: Mutex<HashMap<Term, (u64, u64)>>,
    paused: AtomicBool,
}

impl CallTotals {
    /// True while counting.
    #[inline]
    pub fn running(&self) -> bool {
        !self.paused.load(Ordering::Relaxed)
    }

    /// Adds `calls` calls and `amount` (nanoseconds or words) for the
    /// process `pid`.
    pub fn add(&self, pid: Term, calls: u64, amount: u64) {
        if !self.running() {
            return;
        }
        let mut table = self.per_process.lock().unwrap_or_else(|e| e.into_inner());
        let entry = table.entry(pid).or_default();
        entry.0 += calls;
        entry.1 += amount;
    }

    /// Per process: the calls and the total, ordered by pid.
    pub fn snapshot(&self) -> Vec<(Term, u64, u64)> {
        let table = self.per_process.lock().unwrap_or_else(|e| e.into_inner());
        let mut all: Vec<_> = table.iter().map(|(&p, &(c, ns))| (p, c, ns)).collect();
        all.sort_by_key(|e| e.0.raw());
        all
    }

    /// Stops counting, keeping the counters.
    pub fn pause(&self) {
        self.paused.store(true, Ordering::Relaxed);
    }

    /// Counts again from nothing.
    pub fn restart(&self) {
        self.per_process
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.paused.store(false, Ordering::Relaxed);
    }
}
