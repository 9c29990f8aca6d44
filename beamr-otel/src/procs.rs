//! [`ProcTable`]: what the backend remembers per BEAM process: its open
//! call spans (its call stack), its current consumer span (the context the
//! last message brought), and the start of a collection in progress.
//!
//! # Locking
//!
//! The table is split into [`SHARDS`] maps, each behind its own mutex,
//! chosen by pid. A probe locks one shard for the time it takes to start or
//! end a span (no I/O: ending a span queues it without waiting). Two
//! schedulers contend only when they trace processes of the same shard at
//! the same moment. An entry is removed when it holds nothing, and when its
//! process exits.

use std::collections::HashMap;
use std::sync::Mutex;

use beamr_trace::Mfa;
use opentelemetry::trace::{Span as _, SpanContext};
use opentelemetry_sdk::trace::Span;

/// How many shards the table has (a power of two).
pub(crate) const SHARDS: usize = 64;

/// An open call span.
#[derive(Debug)]
pub(crate) struct Frame {
    /// The function called.
    pub(crate) mfa: Mfa,
    /// Its span.
    pub(crate) span: Span,
}

/// One process's state.
#[derive(Debug, Default)]
pub(crate) struct ProcState {
    /// Open call spans, innermost last.
    pub(crate) calls: Vec<Frame>,
    /// The CONSUMER span of the last message received with a context.
    pub(crate) consumer: Option<Span>,
    /// When the collection in progress started (monotonic ns).
    pub(crate) gc_start_ns: Option<u64>,
}

impl ProcState {
    /// The span new spans of this process are children of: the innermost
    /// call, else the consumer span.
    pub(crate) fn current(&self) -> Option<SpanContext> {
        self.calls
            .last()
            .map(|f| f.span.span_context().clone())
            .or_else(|| self.consumer.as_ref().map(|s| s.span_context().clone()))
    }

    fn is_idle(&self) -> bool {
        self.calls.is_empty() && self.consumer.is_none() && self.gc_start_ns.is_none()
    }
}

/// Per-process state, sharded by pid.
#[derive(Debug)]
pub(crate) struct ProcTable {
    shards: Box<[Mutex<HashMap<u64, ProcState>>]>,
}

impl Default for ProcTable {
    fn default() -> ProcTable {
        ProcTable {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }
}

impl ProcTable {
    fn shard(&self, pid: u64) -> std::sync::MutexGuard<'_, HashMap<u64, ProcState>> {
        self.shards[(pid as usize) & (SHARDS - 1)]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Calls `f` with `pid`'s state (empty if it had none), under its
    /// shard's lock; drops the entry again if `f` leaves it empty.
    pub(crate) fn with<R>(&self, pid: u64, f: impl FnOnce(&mut ProcState) -> R) -> R {
        let mut shard = self.shard(pid);
        let state = shard.entry(pid).or_default();
        let r = f(state);
        if state.is_idle() {
            shard.remove(&pid);
        }
        r
    }

    /// `pid`'s current span context, without creating an entry.
    pub(crate) fn current(&self, pid: u64) -> Option<SpanContext> {
        self.shard(pid).get(&pid).and_then(ProcState::current)
    }

    /// Removes and returns `pid`'s state (at its exit).
    pub(crate) fn take(&self, pid: u64) -> Option<ProcState> {
        self.shard(pid).remove(&pid)
    }

    /// How many processes have state (for tests).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).len())
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn idle_entries_go_away() {
        let t = ProcTable::default();
        t.with(5, |s| s.gc_start_ns = Some(1));
        assert_eq!(t.len(), 1);
        assert!(t.current(5).is_none());
        t.with(5, |s| s.gc_start_ns = None);
        assert_eq!(t.len(), 0);
        t.with(7, |_| ());
        assert_eq!(t.len(), 0);
        assert!(t.take(7).is_none());
    }
}
