//! beamr's own tracer modules, which Erlang code selects as it would a NIF
//! tracer module on the BEAM (`{tracer, Module, State}` in
//! `erlang:trace/3`, `{meta, Module, State}` in `erlang:trace_pattern/3`,
//! `trace:session_create(Name, {Module, State}, [])`):
//!
//! - `beamr_ring_tracer`, `#{file => Path}`: the ring-buffer flight
//!   recorder ([`ring`]), a file `beamr trace dump|stats|...` reads.
//! - `beamr_otel_tracer`, `#{}`: OpenTelemetry over OTLP ([`otel`]).
//!
//! They live in beamr-ringbuf and beamr-otel, which beamr-sched does not
//! depend on; `beamr run` registers them with beamr-sched's tracer-module
//! registry ([`TracerModules::install`]) before the program starts, and
//! closes what they opened when it ends ([`TracerModules::finish`]).

mod installed;
mod otel;
mod ring;
mod state;

pub use installed::TracerModules;
