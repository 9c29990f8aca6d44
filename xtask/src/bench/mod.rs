//! `cargo xtask bench`: beamr's speed against the BEAM's, in one run on one
//! machine, as ratios.
//!
//! Four tables, each from programs that time their own work with
//! `erlang:monotonic_time` and print `<result> <N> us` ([`runner`]), so no
//! runtime's start or stop counts, and medians over `-n` repetitions:
//!
//! 1. [`peer`]: every workload of `../shared/bench` (each `main/0`) on erl
//!    and on beamr, untraced: beamr/BEAM.
//! 2. [`traced`]: tracing's cost. `ring` and `fib` traced by dbg (to a file
//!    port, to a tracer process) on both runtimes, and by beamr's own
//!    backends (the ring buffer, OpenTelemetry to a loopback OTLP sink,
//!    [`otlp_sink`]): each runtime's traced/untraced, side by side, with
//!    issue 10's goals. A driver of ours (`xtask/bench/traced_driver.erl`)
//!    times exactly the traced region; it stands in for `traced.erl`,
//!    whose functions have no `main/0` and time too little or too much.
//! 3. [`probes`] (`--probes` only): beamr with its probes compiled in (and
//!    off) against beamr built with the `probes-off` feature, on the peer
//!    workloads: what a probe site costs while nothing is traced.
//! 4. [`flight`] (`--flight` only): beamr with its flight recorder on
//!    against beamr without it, on the process workloads (issue 33's 3%).
//! 5. [`server`] (`--server` only): the Gleam step's mist app served by
//!    erl 27 and by beamr under `wrk`: requests per second and p99
//!    latency, with 50 and 500 connections.
//!
//! Steps: build beamr in release mode ([`build`]); `erlc` the workloads and
//! the driver into `target/bench/<folder>-<hash>/` (only the stale ones);
//! run the tables asked for ([`Options::tables`]); fail if any workload
//! failed (a crash, a timeout, results that differ between runtimes or
//! runs, output without a time).

pub mod build;
mod flight;
mod options;
mod otlp_sink;
mod pair;
mod peer;
mod probes;
mod run;
pub mod runner;
mod server;
mod traced;

pub use options::{parse, Options};
pub use run::run;

/// The environment variable that overrides where the workloads are.
pub const DIR_VAR: &str = "BEAMR_BENCH_DIR";
