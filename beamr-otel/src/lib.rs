//! beamr-otel: an OpenTelemetry backend for beamr trace events (lifecycle logs,
//! spans, metrics, OTLP export).
//!
//! Not yet implemented: this crate is the subject of a later issue.
#![forbid(unsafe_code)]
