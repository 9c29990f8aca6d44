//! [`SeqTracers`]: where `seq_trace` events go: the system sequential
//! tracer (`seq_trace:set_system_tracer/1`), which gets the BEAM's
//! `{seq_trace, Label, Info[, Ts]}` messages, and an observer backend (the
//! ring buffer of `beamr run --trace-to ring:FILE`), which gets every event
//! through the [`Tracer`] trait.
//!
//! # Protocol
//!
//! 1. A process with a token reaches an output point (a send, a receive, a
//!    print) only past its own test of its token word; a program without
//!    tokens never gets here.
//! 2. [`SeqTracers::output`] tests `on` (one relaxed load): with neither a
//!    system tracer nor an observer, nothing is built.
//! 3. Under the read lock, the observer is asked (`enabled`) and given the
//!    event, and the system tracer's message is built on a heap of its own
//!    and delivered through the runtime's [`Deliver`]. Setting either takes
//!    the write lock, so an event goes wholly to the old or the new setting.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_trace::message::{seq_trace_message, Deliver, Timestamp, TimestampKind};
use beamr_trace::seq_token::flags;
use beamr_trace::{fire, TraceEvent, Tracer};

/// The system sequential tracer: a process, reached through the runtime.
struct SystemTracer {
    pid: Term,
    deliver: Arc<dyn Deliver>,
}

#[derive(Default)]
struct Inner {
    system: Option<SystemTracer>,
    observer: Option<Arc<dyn Tracer>>,
}

/// The runtime's `seq_trace` destinations.
#[derive(Default)]
pub struct SeqTracers {
    /// True while a system tracer or an observer is set.
    on: AtomicBool,
    inner: RwLock<Inner>,
}

impl std::fmt::Debug for SeqTracers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SeqTracers")
            .field("system", &self.system())
            .finish()
    }
}

impl SeqTracers {
    fn write(&self) -> std::sync::RwLockWriteGuard<'_, Inner> {
        self.inner.write().unwrap_or_else(|e| e.into_inner())
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, Inner> {
        self.inner.read().unwrap_or_else(|e| e.into_inner())
    }

    fn update_on(&self, inner: &Inner) {
        let on = inner.system.is_some() || inner.observer.is_some();
        self.on.store(on, Ordering::Release);
    }

    /// Makes `pid` the system sequential tracer (`None`: no system tracer),
    /// its messages delivered through `deliver`. Returns the previous one.
    pub fn set_system(&self, tracer: Option<(Term, Arc<dyn Deliver>)>) -> Option<Term> {
        let mut inner = self.write();
        let old = inner.system.take().map(|s| s.pid);
        inner.system = tracer.map(|(pid, deliver)| SystemTracer { pid, deliver });
        self.update_on(&inner);
        old
    }

    /// The system sequential tracer, if one is set.
    pub fn system(&self) -> Option<Term> {
        self.read().system.as_ref().map(|s| s.pid)
    }

    /// Gives every `seq_trace` event to `observer` as well (the ring
    /// buffer of a recorded run).
    pub fn set_observer(&self, observer: Arc<dyn Tracer>) {
        let mut inner = self.write();
        inner.observer = Some(observer);
        self.update_on(&inner);
    }

    /// Reports a `seq_trace` event of a token with `token_flags` (the token
    /// flag for the event's kind is tested by the caller): to the observer,
    /// and as a message to the system tracer.
    #[cold]
    #[inline(never)]
    pub fn output(&self, event: &TraceEvent<'_>, token_flags: u32) {
        if !self.on.load(Ordering::Relaxed) {
            return;
        }
        let inner = self.read();
        if let Some(observer) = inner.observer.as_deref() {
            fire(observer, event.tag, event.tracee, || *event);
        }
        if let Some(system) = inner.system.as_ref() {
            let kind = if token_flags & flags::STRICT_MONOTONIC_TIMESTAMP != 0 {
                TimestampKind::StrictMonotonic
            } else if token_flags & flags::MONOTONIC_TIMESTAMP != 0 {
                TimestampKind::Monotonic
            } else if token_flags & flags::NOW_TIMESTAMP != 0 {
                TimestampKind::Now
            } else {
                TimestampKind::None
            };
            let ts = match kind {
                TimestampKind::None => Timestamp::None,
                kind => system.deliver.timestamp(kind, event.timestamp_ns),
            };
            let mut heap = Heap::new();
            if let Some(message) = seq_trace_message(&mut heap, event, ts) {
                system.deliver.deliver(system.pid, message, heap);
            }
        }
    }
}
