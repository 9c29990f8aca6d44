//! The `trace` module for releases that have none (OTP 25 and 26): OTP
//! 27's API (`trace:session_create/3`, `process/4`, `port/4`,
//! `function/4`, `send/3`, `recv/3`, `info/3`, `delivered/2`,
//! `session_destroy/1`, `session_info/1`) as natives over the same
//! session BIFs OTP 27's own `trace` module calls (`sessions`).
//!
//! Natives rather than a bundled module: each function is one call of a
//! session BIF, so there is nothing for bytecode to do. With OTP 27 and
//! later these rows are not installed (`registry`), and OTP's own
//! `trace` module runs as bytecode on the erts BIFs. The one difference:
//! a bad argument raises `badarg` from the BIF's frame, where OTP 27's
//! module re-raises it from its own with `erl_kernel_errors` as the
//! `error_info` module.

use beamr_core::atom::Atom;
use beamr_core::term::Term;

use super::sessions::{session_create, session_destroy, trace4, trace_info3, trace_pattern4};
use crate::loader::BifRow;
use crate::process::{Exception, Process};
use crate::runtime::Runtime;

/// The BIFs of this file.
pub(crate) const BIFS: &[BifRow] = &[
    ("trace", "session_create", 3, session_create),
    ("trace", "session_destroy", 1, session_destroy),
    ("trace", "session_info", 1, session_info),
    ("trace", "process", 4, trace4),
    ("trace", "port", 4, port),
    ("trace", "function", 4, trace_pattern4),
    ("trace", "send", 3, send),
    ("trace", "recv", 3, recv),
    ("trace", "info", 3, trace_info3),
    ("trace", "delivered", 2, delivered),
];

fn atom(name: &str) -> Term {
    Term::atom(Atom::new(name).expect("a short atom name"))
}

/// `trace:port(Session, Ports, How, FlagList)`: `all`, `existing` and
/// `new` name ports here.
fn port(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let ports = match a[1].as_atom().map(Atom::name) {
        Some("all") => atom("ports"),
        Some("existing") => atom("existing_ports"),
        Some("new") => atom("new_ports"),
        _ => a[1],
    };
    trace4(rt, p, &[a[0], ports, a[2], a[3]])
}

/// `trace:send(Session, MatchSpec, FlagList)`.
fn send(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    trace_pattern4(rt, p, &[a[0], atom("send"), a[1], a[2]])
}

/// `trace:recv(Session, MatchSpec, FlagList)`.
fn recv(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    trace_pattern4(rt, p, &[a[0], atom("receive"), a[1], a[2]])
}

/// `trace:delivered(Session, Tracee)`: `erlang:trace_delivered/1`.
fn delivered(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    super::flags::trace_delivered(rt, p, &a[1..])
}

/// `trace:session_info(PidPortFuncEvent)`: the sessions tracing it, or
/// `undefined`.
fn session_info(rt: &Runtime, p: &mut Process, a: &[Term]) -> Result<Term, Exception> {
    let what = if a[0] == atom("all") {
        atom("any")
    } else {
        a[0]
    };
    let answer = trace_info3(rt, p, &[atom("any"), what, atom("session")])?;
    Ok(match answer.as_tuple() {
        Some(&[_, list]) => list,
        _ => answer,
    })
}
