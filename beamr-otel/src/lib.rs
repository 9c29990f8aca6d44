//! beamr-otel: an empty placeholder.
//!
//! There is no code here yet. Planned: an OpenTelemetry backend for beamr
//! trace events (a beamr-trace `Tracer`): process lifecycle logs, spans that
//! follow messages, metrics, OTLP export. Its events are to come from the
//! runtime's probes, which are planned too (beamr-sched fires none yet).
#![forbid(unsafe_code)]
