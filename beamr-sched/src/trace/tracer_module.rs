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
//! keeps a copy of `{Module, State}` for `erlang:trace_info(Pid, tracer)`
//! and passes everything else through to the module's tracer.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, RwLock};

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_trace::{Layer, Layered, Tracer};

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

/// A tracer made by a tracer module, named by its `{Module, State}` term
/// for `erlang:trace_info/2`: the module's tracer wrapped in a
/// [`TracerName`], which passes every other method through (its one-call
/// paths included).
pub type ModuleTracer = Layered<TracerName, Arc<dyn Tracer>>;

/// `inner`, made by `module` from `state`, as the tracer `{module,
/// state}` names (`state` is copied).
pub fn module_tracer(module: Atom, state: Term, inner: Arc<dyn Tracer>) -> ModuleTracer {
    Layered::new(TracerName::new(module, state), inner)
}

/// The layer of a [`ModuleTracer`]: the `{Module, State}` term, kept on a
/// heap of its own.
pub struct TracerName {
    name: Term,
    /// Holds `name`'s words; never touched after the copy (the mutex only
    /// makes the heap shareable between threads).
    _heap: Mutex<Heap>,
}

impl TracerName {
    /// `{module, state}`, with `state` copied.
    pub fn new(module: Atom, state: Term) -> TracerName {
        let mut heap = Heap::new();
        let state = heap.copy_term(state);
        let name = heap.tuple(&[Term::atom(module), state]);
        TracerName {
            name,
            _heap: Mutex::new(heap),
        }
    }
}

impl Layer for TracerName {
    fn name(&self) -> Option<Term> {
        Some(self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use beamr_trace::{CallArgs, Decision, Mfa, RecordingTracer, TraceEvent, TraceTag, Tracee};
    use std::sync::atomic::{AtomicU64, Ordering};

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
        let tracer = module_tracer(name, state, module.open(state).unwrap());
        let term = tracer.tracer_term().expect("a name");
        assert_eq!(term.as_tuple(), Some(&[Term::atom(name), state][..]));
        assert_eq!(
            tracer.enabled(TraceTag::Send, Tracee::pid(1)),
            Decision::Trace
        );
    }

    /// A tracer whose one-call paths count their calls; its `trace` is
    /// never to be reached through them.
    #[derive(Default)]
    struct OneCall {
        calls: AtomicU64,
        returns: AtomicU64,
        events: AtomicU64,
    }

    impl Tracer for OneCall {
        fn enabled(&self, _tag: TraceTag, _tracee: Tracee) -> Decision {
            Decision::Trace
        }
        fn trace(&self, _event: &TraceEvent<'_>) {
            self.events.fetch_add(1, Ordering::Relaxed);
        }
        fn reads_clock(&self) -> bool {
            false
        }
        fn fire_call(
            &self,
            _tracee: Tracee,
            _scheduler_id: u32,
            _mfa: &Mfa,
            _args: CallArgs<'_>,
            _match_spec_result: Option<Term>,
        ) -> Decision {
            self.calls.fetch_add(1, Ordering::Relaxed);
            Decision::Trace
        }
        fn fire_return(&self, _: Tracee, _: u32, _: &Mfa, _: Term) -> Decision {
            self.returns.fetch_add(1, Ordering::Relaxed);
            Decision::Trace
        }
    }

    #[test]
    fn a_module_tracer_takes_its_backends_one_call_paths() {
        // As `{tracer, beamr_ring_tracer, State}` wraps the ring's tracer.
        let inner = Arc::new(OneCall::default());
        let tracer = module_tracer(Atom::OK, Term::NIL, inner.clone());
        let mfa = Mfa {
            module: Atom::OK,
            function: Atom::OK,
            arity: 0,
        };
        let me = Tracee::pid(1);
        tracer.fire_call(me, 0, &mfa, CallArgs::Arity(0), None);
        tracer.fire_return(me, 0, &mfa, Term::NIL);
        assert!(!tracer.reads_clock());
        assert_eq!(
            (
                inner.calls.load(Ordering::Relaxed),
                inner.returns.load(Ordering::Relaxed),
                inner.events.load(Ordering::Relaxed)
            ),
            (1, 1, 0)
        );
    }
}
