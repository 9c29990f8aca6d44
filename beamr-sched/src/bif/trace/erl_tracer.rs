//! `erl_tracer`, OTP's own tracer module: its state is the process or port
//! that gets the trace messages, so `{tracer, erl_tracer, Pid}` is the
//! tracer `{tracer, Pid}` is (`named_tracers` makes the message backend
//! for it). Its `enabled/3` NIF is native here, answering as erts's
//! `erl_tracer` NIF does; OTP's `erlang`, `trace` and `seq_trace` modules
//! call it to load the module before they name it in a trace BIF. Its
//! `trace/5,6` NIFs, which the runtime calls on the BEAM, are not: beamr's
//! message backend sends the messages, and a direct call raises the
//! module's own `nif_not_loaded` error.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[("erl_tracer", "enabled", 3, enabled)];

/// True if `state` names a tracer `erl_tracer` can send to: a live local
/// process or an open local port.
pub(super) fn takes(rt: &Runtime, state: Term) -> bool {
    if state.is_local_pid() {
        rt.processes.get(state).is_some()
    } else {
        state.is_local_port() && rt.ports.get(state).is_some_and(|p| !p.state().closed)
    }
}

/// `erl_tracer:enabled(Tag, TracerState, Tracee)`: when the state is no
/// live process or open port, `remove` for `trace_status` and `discard`
/// for any other tag; `discard` for the tracer's own events; else `trace`.
fn enabled(rt: &Runtime, _p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let status = a[0].as_atom().is_some_and(|t| t.name() == "trace_status");
    let answer = if !takes(rt, a[1]) {
        if status {
            "remove"
        } else {
            "discard"
        }
    } else if a[1] == a[2] {
        "discard"
    } else {
        "trace"
    };
    Ok(Term::atom(Atom::new(answer).expect("atom")))
}
