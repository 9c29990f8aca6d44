//! The trace BIFs: every BIF that turns tracing on or off or asks how
//! things are traced (`erlang:trace/3`, `trace_pattern/2,3`,
//! `trace_info/2`, `trace_delivered/1`, `match_spec_test/3`, the
//! `seq_trace` BIFs, OTP 27's trace sessions and, for releases without
//! one, beamr's own `trace` module), and where their trace messages go.
//!
//! # Why here, and not in `crate::trace`
//!
//! `crate::trace` is the bottom layer of beamr-sched and holds all trace
//! state: what every probe site tests and calls (a process's flag word,
//! sessions, the tracers, one function per probe) and the call pattern
//! table (`trace::call_patterns`, which the code server is passed to),
//! usable from the process and signal code below everything else. The
//! BIFs that change that state need what sits above it: the process table
//! and the signals that carry a change to another process (`runtime`,
//! `signals`), the code server, match specifications (`matchspec`) and
//! the interpreter's test host. So the control side lives up here, as
//! BIFs, and reaches down; the layers keep pointing one way. Three pieces
//! of tracing live with what they extend, because the layers below run
//! them when a probe fires: `matchspec::trace` (the trace dialect of the
//! match specification engine: the functions and actions a pattern's body
//! may call), `signals::message_trace` and `signals::seq_trace` (the
//! message probes and the token's rules), and `Runtime::end_trace_session`
//! (a process's exit ends the sessions it holds).
//!
//! # Files
//!
//! ```text
//! fallback_module  the `trace` module on OTP 25 and 26, over `sessions`
//!  |
//! sessions         erts's session BIFs: `trace/4`, `trace_pattern/4`, `trace_info/3`, ...
//!  |
//! flags  patterns  info   erlang:trace/3 (and trace_delivered/1), trace_pattern/2,3,
//!  |                      trace_info/2, each in a given session
//!  |
//! named_tracers    `{tracer, Module, State}` and friends, `erl_tracer`'s own (`erl_tracer`)
//! delivery         where trace messages go: a tracer process, a port, through the runtime
//! seq_trace        the seq_trace BIFs and the sequential tracer (`system_flag`, `system_info`)
//! match_spec_test  erlang:match_spec_test/3
//! ```
//!
//! The wing uses only `common` among the other wings; `erlang`'s
//! `system_flag/2` and `system_info/1` use it.

pub(super) mod delivery;
pub(super) mod erl_tracer;
pub(super) mod fallback_module;
pub(super) mod flags;
pub(super) mod info;
pub(super) mod match_spec_test;
pub(super) mod named_tracers;
pub(super) mod patterns;
pub(super) mod seq_trace;
pub(super) mod sessions;
