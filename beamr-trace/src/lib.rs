//! beamr-trace: the tracing vocabulary shared by the runtime and every trace backend.
//!
//! Trace tags, tracees, decisions, trace events and the [`Tracer`] trait. The
//! runtime (beamr-sched) fires probes through this crate; backends
//! (beamr-ringbuf, beamr-otel, the message backend) implement [`Tracer`].
#![forbid(unsafe_code)]
