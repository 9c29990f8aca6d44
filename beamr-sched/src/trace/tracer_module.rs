//! Tracer modules: `{tracer, Module, State}` in `erlang:trace/3`,
//! `{meta, Module, State}` in `erlang:trace_pattern/3` and
//! `trace:session_create(Name, {Module, State}, Opts)`.
//!
//! On the BEAM a tracer module is a NIF library implementing
//! `erl_tracer`'s callbacks. NIF libraries do not load on beamr, so a
//! tracer module here is a [`TracerModule`]: a native backend registered
//! under a module name ([`register`]), which turns the `State` term into
//! a [`Tracer`] ([`TracerModule::open`]). The `Tracer` trait keeps
//! `erl_tracer`'s contract: `enabled` is asked before an event is built,
//! `trace_status` when the tracer is set on a tracee, and `trace` gets the
//! tag, the tracee, the event's terms and its options (timestamp,
//! scheduler id, match-spec result) in one [`TraceEvent`](beamr_trace::TraceEvent).
//!
//! The registry is runtime-wide and filled before programs run: beamr-cli
//! registers its backends at boot (`beamr_ring_tracer`, the ring-buffer
//! flight recorder, and `beamr_otel_tracer`, OpenTelemetry), which live in
//! crates beamr-sched does not depend on (they depend on beamr-trace
//! only). `erl_tracer`, OTP's own tracer module (trace messages to the
//! process or port its state names), is the message backend and needs no
//! registration (the BIFs know it).
//!
//! A tracer made from a module is wrapped in a [`ModuleTracer`], which
//! keeps a copy of `{Module, State}` for `erlang:trace_info(Pid, tracer)`.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, RwLock};

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_trace::{Decision, TraceContext, TraceEvent, TraceTag, Tracee, Tracer};

/// A tracer module: a native trace backend that Erlang code selects by
/// module name.
pub trait TracerModule: Send + Sync {
    /// A tracer for `state` (a term on the caller's heap, valid during the
    /// call: copy what is kept), or why `state` is not one this module
    /// takes (the BIF raises `badarg` with it as the cause).
    fn open(&self, state: Term) -> Result<Arc<dyn Tracer>, String>;
}

type Registry = RwLock<HashMap<Atom, Arc<dyn TracerModule>>>;

static MODULES: LazyLock<Registry> = LazyLock::new(|| RwLock::new(HashMap::new()));

/// Registers `module` as the tracer module `name` (replacing one
/// registered under that name before).
pub fn register(name: Atom, module: Arc<dyn TracerModule>) {
    MODULES
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(name, module);
}

/// The tracer module registered as `name`, if any.
pub fn find(name: Atom) -> Option<Arc<dyn TracerModule>> {
    MODULES
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .get(&name)
        .cloned()
}

/// A tracer made by a tracer module, with the `{Module, State}` term that
/// names it (kept on a heap of its own for `erlang:trace_info/2`).
pub struct ModuleTracer {
    inner: Arc<dyn Tracer>,
    name: Term,
    /// Holds `name`'s words; never touched after the copy (the mutex only
    /// makes the heap shareable between threads).
    _heap: Mutex<Heap>,
}

impl ModuleTracer {
    /// `inner`, named `{module, state}` (`state` is copied).
    pub fn new(module: Atom, state: Term, inner: Arc<dyn Tracer>) -> ModuleTracer {
        let mut heap = Heap::new();
        let state = heap.copy_term(state);
        let name = heap.tuple(&[Term::atom(module), state]);
        ModuleTracer {
            inner,
            name,
            _heap: Mutex::new(heap),
        }
    }
}

impl Tracer for ModuleTracer {
    fn enabled(&self, tag: TraceTag, tracee: Tracee) -> Decision {
        self.inner.enabled(tag, tracee)
    }
    fn trace(&self, event: &TraceEvent<'_>) {
        self.inner.trace(event)
    }
    fn trace_status(&self, tracee: Tracee) -> Decision {
        self.inner.trace_status(tracee)
    }
    fn monitor(&self, watcher: Tracee, target: Term, reference: Term, timestamp_ns: u64) {
        self.inner.monitor(watcher, target, reference, timestamp_ns)
    }
    fn trace_send(&self, event: &TraceEvent<'_>) -> Option<TraceContext> {
        self.inner.trace_send(event)
    }
    fn trace_receive(&self, event: &TraceEvent<'_>, carried: Option<TraceContext>) {
        self.inner.trace_receive(event, carried)
    }
    fn tracer_term(&self) -> Option<Term> {
        Some(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use beamr_trace::RecordingTracer;

    struct Recording;

    impl TracerModule for Recording {
        fn open(&self, state: Term) -> Result<Arc<dyn Tracer>, String> {
            if state.is_atom() {
                Ok(Arc::new(RecordingTracer::new()))
            } else {
                Err("an atom, please".into())
            }
        }
    }

    #[test]
    fn registered_modules_are_found_by_name_and_name_their_tracers() {
        let name = Atom::new("tracer_module_test_recording").unwrap();
        assert!(find(name).is_none());
        register(name, Arc::new(Recording));
        let module = find(name).expect("registered");
        assert!(module.open(Term::NIL).is_err());
        let state = Term::atom(Atom::OK);
        let tracer = ModuleTracer::new(name, state, module.open(state).unwrap());
        let term = tracer.tracer_term().expect("a name");
        assert_eq!(term.as_tuple(), Some(&[Term::atom(name), state][..]));
        assert_eq!(
            tracer.enabled(TraceTag::Send, Tracee::pid(1)),
            Decision::Trace
        );
    }
}
