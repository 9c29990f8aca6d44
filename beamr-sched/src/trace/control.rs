//! [`TraceControl`]: the runtime-wide trace settings: what a new process
//! starts with (`erlang:trace(new, ...)`, and `beamr run --trace`), and
//! where `seq_trace` events go.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;

use super::process_trace::ProcessTrace;

/// Runtime-wide trace settings.
#[derive(Debug, Default)]
pub struct TraceControl {
    /// True while `new_processes` traces anything: spawning reads this word
    /// and takes the lock only when it is set.
    new_traced: AtomicBool,
    new_processes: RwLock<ProcessTrace>,
    /// Where `seq_trace` events go.
    pub seq: super::SeqTracers,
}

impl TraceControl {
    /// Sets how processes spawned from now on are traced (unless their
    /// parent passes its own flags on with `set_on_spawn`).
    pub fn set_new_processes(&self, trace: ProcessTrace) {
        let on = !trace.flags().is_empty();
        *self
            .new_processes
            .write()
            .unwrap_or_else(|e| e.into_inner()) = trace;
        self.new_traced.store(on, Ordering::Release);
    }

    /// Applies an `erlang:trace(new, ...)` request to the settings of new
    /// processes.
    pub fn change_new_processes(&self, change: &super::TraceChange) {
        let mut new = self
            .new_processes
            .write()
            .unwrap_or_else(|e| e.into_inner());
        new.apply(change);
        self.new_traced
            .store(!new.flags().is_empty(), Ordering::Release);
    }

    /// How a new process is traced.
    #[inline]
    pub fn for_new_process(&self) -> ProcessTrace {
        if !super::PROBES || !self.new_traced.load(Ordering::Acquire) {
            return ProcessTrace::off();
        }
        self.new_processes
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}
