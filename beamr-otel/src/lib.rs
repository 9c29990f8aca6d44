//! beamr-otel: OpenTelemetry logs, spans and metrics from a running beamr,
//! exported over OTLP.
//!
//! `beamr run --trace FLAGS --trace-to otel` feeds it from the runtime's
//! probes; tests also feed it trace events directly, and `docs/runtime.md`
//! says what the runtime calls.
//!
//! [`OtelTracer`] implements beamr-trace's `Tracer`: the runtime fires its
//! probes into it and it turns them into
//! - process lifecycle log records ([`lifecycle`]: `process.spawned`,
//!   `process.exited`, `process.crashed`, `process.linked`,
//!   `process.monitored`),
//! - call spans nested by each process's call stack, and PRODUCER/CONSUMER
//!   spans for messages whose context travels with the message
//!   ([`spans`], `context`),
//! - runtime metrics ([`metrics`]), from events and from snapshots the
//!   runtime feeds.
//!
//! A [`Pipeline`] owns the SDK providers and exports over OTLP (gRPC,
//! HTTP/protobuf, HTTP/JSON), configured by [`Config`] (read from the
//! standard `OTEL_*` variables by [`Config::from_env`]), on threads of its
//! own with bounded queues: the runtime never waits for a collector, and
//! what is dropped is counted ([`Pipeline::stats`]).
//!
//! Without a pipeline, [`OtelTracer::disabled`] answers `Discard` to every
//! `enabled` question: the runtime builds no event and the backend costs
//! one load and a branch per probe.
//!
//! ```no_run
//! use beamr_otel::{Config, Pipeline};
//! let pipeline = Pipeline::start(Config::from_env())?;
//! let tracer = pipeline.tracer(); // hand it to the runtime's trace session
//! # drop(tracer);
//! pipeline.shutdown()?;
//! # Ok::<(), beamr_otel::Error>(())
//! ```
//!
//! # Modules, lowest first (each uses only those above it)
//!
//! ```text
//! config  keys  render  clock  context  exec      (leaves)
//! exit                      (render)
//! batch                     (exec)
//! procs                     (beamr-trace types, SDK spans)
//! lifecycle                 (exit, keys, render)
//! spans                     (context, keys, procs, render)
//! metrics                   (batch, keys)
//! tracer                    (clock, context, exit, lifecycle, metrics, procs, spans)
//! pipeline                  (everything above)
//! ```
//! `tests/layering.rs` holds this order.
#![forbid(unsafe_code)]

mod batch;
mod clock;
pub mod config;
mod context;
mod exec;
mod exit;
pub mod keys;
pub mod lifecycle;
pub mod metrics;
mod pipeline;
mod procs;
pub mod render;
pub mod spans;
mod tracer;

pub use batch::QueueStats;
pub use config::{Config, Protocol, SamplerConfig, Signals};
pub use metrics::{RuntimeMetrics, RuntimeSnapshot, Sampler};
pub use pipeline::{Error, ExportStats, Pipeline};
pub use tracer::OtelTracer;
