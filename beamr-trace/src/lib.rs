//! beamr-trace: the tracing vocabulary meant to be shared by the runtime and
//! every trace backend.
//!
//! Trace tags, tracees, decisions, trace events and the [`Tracer`] trait,
//! which beamr-sched's probes call. [`MessageTracer`](message::MessageTracer)
//! (the BEAM's trace messages), beamr-ringbuf's `RingTracer`, beamr-otel's
//! tracer and this crate's [`RecordingTracer`] implement it.
//!
//! Planned, not here yet: trace patterns, match specifications for tracing
//! and trace sessions.
//!
//! - [`clock`]: the monotonic nanosecond clock events are stamped with.
//! - [`context`]: [`TraceContext`], what a message carries from its send
//!   probe to its receive probe.
//! - [`tag`]: [`TraceTag`], every tag of `erlang:trace/3`, `erl_tracer` and
//!   `seq_trace`, with the atom each one is.
//! - [`flags`]: [`TraceFlags`], the flags of `erlang:trace/3`.
//! - [`tracee`]: [`Tracee`], the process or port a probe fired in.
//! - [`event`]: [`TraceEvent`] and its [`Payload`], borrowed from the tracee.
//! - [`tracer`]: the [`Tracer`] trait, its [`Decision`], and [`fire`], the
//!   protocol a probe site is to follow.
//! - [`layer`]: [`Layered`], the one way to wrap a tracer in another: a
//!   [`Layer`] says what the wrapper changes, and every method of the
//!   trait passes through the rest.
//! - [`limit`]: [`LimitedTracer`], a backend behind per-second and total
//!   limits (a [`Layer`]), counting what it drops.
//! - [`message`]: the message backend: the BEAM's trace messages, sent to a
//!   tracer process through the runtime's [`message::Deliver`].
//! - [`trace_tuple`]: the elements of a trace message, for the message
//!   backend to make a tuple of or a trace port to encode as they are.
//! - [`seq_token`]: [`SeqToken`], a `seq_trace` token's tuple and flags.
//! - [`text`]: [`TextTracer`], events as lines of text, as `dbg`'s default
//!   handler prints them.
//! - [`recording`]: [`RecordingTracer`], a backend that keeps copies of what it
//!   is given, for tests.
#![forbid(unsafe_code)]

pub mod clock;
pub mod context;
pub mod event;
pub mod flags;
pub mod layer;
pub mod limit;
pub mod message;
pub mod recording;
pub mod seq_token;
pub mod tag;
pub mod text;
pub mod trace_tuple;
pub mod tracee;
pub mod tracer;

pub use context::TraceContext;
pub use event::{CallArgs, GcInfo, Mfa, Payload, SeqSerial, TraceEvent};
pub use flags::TraceFlags;
pub use layer::{Layer, Layered, Plain};
pub use limit::{limited, LimitedTracer, Limiter, Limits};
pub use recording::RecordingTracer;
pub use seq_token::SeqToken;
pub use tag::TraceTag;
pub use text::TextTracer;
pub use tracee::{Tracee, TraceeId};
pub use tracer::{fire, fire_with, Decision, Tracer};
