//! [`TraceControl`]: the runtime-wide trace settings: what a new process
//! or port starts with (`erlang:trace(new, ...)`, `new_processes`,
//! `new_ports`, and `beamr run --trace`), how
//! the program's processes are traced (`beamr run --trace-pids`), and
//! where `seq_trace` events go.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, RwLock};

use super::process_trace::ProcessTrace;

/// Runtime-wide trace settings.
#[derive(Debug, Default)]
pub struct TraceControl {
    /// What a new process starts with.
    new_processes: NewTrace,
    /// What a new port starts with.
    new_ports: NewTrace,
    /// Where `seq_trace` events go.
    pub seq: super::SeqTracers,
    /// How the program (`run_main`'s process) is to be traced, until it
    /// starts.
    program: Mutex<Option<(ProcessTrace, ProgramScope)>>,
}

/// What a new process or port starts with (`erlang:trace(new | new_ports,
/// ...)`), and a word saying whether that traces anything: spawning reads
/// the word and takes the lock only when it is set.
#[derive(Debug, Default)]
struct NewTrace {
    traced: AtomicBool,
    trace: RwLock<ProcessTrace>,
}

impl NewTrace {
    /// Replaces the default with `trace`.
    fn set(&self, trace: ProcessTrace) {
        let on = !trace.flags().is_empty();
        *self.trace.write().unwrap_or_else(|e| e.into_inner()) = trace;
        self.traced.store(on, Ordering::Release);
    }

    /// Applies `change` to the default. As in erts, clearing flags clears
    /// the default's tracer, so whatever else it had no longer traces
    /// anything: any `false` request leaves it off in that session.
    fn change(&self, change: &super::TraceChange) {
        let mut new = self.trace.write().unwrap_or_else(|e| e.into_inner());
        if change.set {
            new.apply(change);
        } else {
            new.clear_session(&change.session);
        }
        self.traced
            .store(!new.flags().is_empty(), Ordering::Release);
    }

    /// The default as it is.
    fn current(&self) -> ProcessTrace {
        self.trace.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// What a new one starts with: one load while nothing is traced.
    #[inline]
    fn for_new(&self) -> ProcessTrace {
        if !super::PROBES || !self.traced.load(Ordering::Acquire) {
            return ProcessTrace::off();
        }
        self.current()
    }
}

/// Which of a run's processes [`TraceControl::set_program`] traces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ProgramScope {
    /// The process that runs the program's function, from its first
    /// instruction (and those it spawns, if the flags have `set_on_spawn`).
    Main,
    /// Every process spawned from the moment the program starts, the main
    /// one first; not the runtime's own, started before it.
    New,
}

impl TraceControl {
    /// Sets how processes spawned from now on are traced (unless their
    /// parent passes its own flags on with `set_on_spawn`).
    pub fn set_new_processes(&self, trace: ProcessTrace) {
        self.new_processes.set(trace);
    }

    /// Applies an `erlang:trace(new, ...)` request to the settings of new
    /// processes.
    pub fn change_new_processes(&self, change: &super::TraceChange) {
        self.new_processes.change(change);
    }

    /// Applies an `erlang:trace(new_ports, ...)` request to the settings
    /// of new ports.
    pub fn change_new_ports(&self, change: &super::TraceChange) {
        self.new_ports.change(change);
    }

    /// How a new port is traced.
    #[inline]
    pub fn for_new_port(&self) -> ProcessTrace {
        self.new_ports.for_new()
    }

    /// How new ports are traced, as `erlang:trace_info(new_ports, _)` sees
    /// it.
    pub fn new_ports(&self) -> ProcessTrace {
        self.new_ports.current()
    }

    /// Traces the program's processes (`scope`) with `trace` once it
    /// starts (see [`TraceControl::start_program`]).
    pub fn set_program(&self, trace: ProcessTrace, scope: ProgramScope) {
        *self.program.lock().unwrap_or_else(|e| e.into_inner()) = Some((trace, scope));
    }

    /// The program is about to start: with [`ProgramScope::New`], new
    /// processes are traced from now on.
    pub fn start_program(&self) {
        let mut program = self.program.lock().unwrap_or_else(|e| e.into_inner());
        // Main's stays for the spawn of the main process to take.
        if matches!(*program, Some((_, ProgramScope::New))) {
            if let Some((trace, _)) = program.take() {
                self.set_new_processes(trace);
            }
        }
    }

    /// The trace of the program's main process with [`ProgramScope::Main`]
    /// (taken: only the one spawn that asks gets it).
    pub fn take_main(&self) -> Option<ProcessTrace> {
        let mut program = self.program.lock().unwrap_or_else(|e| e.into_inner());
        match program.take() {
            Some((trace, ProgramScope::Main)) => Some(trace),
            other => {
                *program = other;
                None
            }
        }
    }

    /// How a new process is traced.
    #[inline]
    pub fn for_new_process(&self) -> ProcessTrace {
        self.new_processes.for_new()
    }
}
