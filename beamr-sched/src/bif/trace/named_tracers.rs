//! The tracers the trace BIFs are given by name: `{tracer, Module, State}`
//! (`erlang:trace/3`), `{meta, Module, State}` (`erlang:trace_pattern/3`)
//! and `{Module, State}` (`trace:session_create/3`), besides a plain pid
//! or port.
//!
//! A module names a tracer when it is `erl_tracer` (OTP's own tracer
//! module: trace messages to the process or port its state is, the same
//! tracer as `{tracer, Pid}`; a state that is neither takes no tracee, as
//! `erl_tracer`'s `enabled(trace_status, ...)` answers `remove`) or a
//! tracer module registered with beamr (`trace::tracer_module`: beamr's
//! own backends). Any other module is not a tracer module
//! ([`not_a_tracer`]).

use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::term::Term;
use beamr_trace::{Decision, TraceEvent, TraceTag, Tracee, Tracer};

use crate::code::CodeServer;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;
use crate::trace::tracer_module;

/// A tracer named by a trace BIF's argument.
pub(super) enum NamedTracer {
    /// A process or port: trace messages (with the call's timestamp
    /// flags).
    Process(Term),
    /// A tracer module's tracer.
    Module(Arc<dyn Tracer>),
}

/// `erl_tracer` with a state that is no process or port: it takes no
/// tracee.
struct NoTracee;

impl Tracer for NoTracee {
    fn enabled(&self, _tag: TraceTag, _tracee: Tracee) -> Decision {
        Decision::Remove
    }
    fn trace(&self, _event: &TraceEvent<'_>) {}
    fn trace_status(&self, _tracee: Tracee) -> Decision {
        Decision::Remove
    }
}

/// The tracer `Module` makes of `State`: `Ok(None)` when `module` is no
/// tracer module; `badarg` (its cause saying why) when the module does not
/// take `state`. `erl_tracer`'s state must be a live process or an open
/// port, else the tracer takes no tracee.
pub(super) fn module_tracer(
    rt: &Runtime,
    module: Atom,
    state: Term,
) -> Result<Option<NamedTracer>, Exception> {
    if module.name() == "erl_tracer" {
        return Ok(Some(if super::erl_tracer::takes(rt, state) {
            NamedTracer::Process(state)
        } else {
            NamedTracer::Module(Arc::new(NoTracee))
        }));
    }
    let Some(backend) = tracer_module::find(module) else {
        return Ok(None);
    };
    match backend.open(state) {
        Ok(tracer) => Ok(Some(NamedTracer::Module(Arc::new(
            tracer_module::module_tracer(module, state, tracer),
        )))),
        Err(why) => {
            let cause = Atom::new_within_limit(&format!("{}: {why}", module.name()))
                .map_or(Term::atom(Atom::BADARG), Term::atom);
            Err(Exception::badarg_cause(cause))
        }
    }
}

/// What `erlang:trace/3` and `erlang:trace_pattern/3` raise for
/// `{tracer | meta, Module, State}` when `Module` is no tracer module. They
/// first call `Module:enabled(trace_status, self(), State)` if `Module` is
/// not loaded (which loads it): a module that cannot be loaded, or has no
/// `enabled/3`, raises `undef` from there; any other is a bad option
/// (`badarg`, cause `badopt`).
pub(super) fn not_a_tracer(p: &mut Process, module: Atom, state: Term) -> Exception {
    let code = CodeServer::global();
    if code.current(module).is_none() {
        let _ = code.ensure_loaded(module);
        let enabled = Atom::new("enabled").expect("atom");
        let has_enabled = code.current(module).is_some_and(|m| {
            m.exports
                .iter()
                .any(|&(name, arity, _)| name == enabled && arity == 3)
        });
        if !has_enabled {
            let status = Term::atom(Atom::new("trace_status").expect("atom"));
            let mut e = Exception::error(Term::atom(Atom::UNDEF));
            e.args = p.heap.list(&[status, p.pid, state]);
            e.mfa = Some((module, enabled));
            return e;
        }
    }
    bad_option()
}

/// `badarg` with the `badopt` cause, as the BEAM raises for an unknown flag.
pub(super) fn bad_option() -> Exception {
    Exception::badarg_cause(Term::atom(Atom::new("badopt").expect("atom")))
}
