//! Tracing for a client (`beamr ctl PID trace ...`, `tp ...`): a trace
//! session of the client's own, as OTP 27's `trace:session_create/3` makes
//! one, so that it never touches the program's own tracing (the legacy
//! session of `erlang:trace/3`) or another client's session.
//!
//! 1. [`start`] creates the session, held by no process
//!    (`Session::create_unheld`), its tracer a [`meter::Meter`] around the
//!    destination ([`sink`]'s lines for the client, or a ring file).
//! 2. The agent (`beamr_ctl_agent:trace_start/5`) sets the call patterns
//!    and then the flags in that session, by its weak handle (so the
//!    agent's own end does not end it).
//! 3. The server streams the events to the client until the session is to
//!    end (`server::trace_stream`): the client went, the duration or the
//!    limit ran out, or a `TraceStop` came ([`registry`]).
//! 4. [`ActiveTrace::end`] ends the session: every process and the
//!    settings of new ones lose its flags (`Runtime::end_trace_session`),
//!    and its patterns go.

pub mod meter;
pub mod registry;
pub mod sink;
mod start;

pub use start::{start, ActiveTrace};
