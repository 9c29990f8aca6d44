//! beamr-otel's loopback OTLP receiver and its model of what arrived, shared
//! with beamr-otel's own tests (one copy of the code, two users).
#![allow(dead_code)]

#[path = "../../../beamr-otel/tests/support/model.rs"]
pub mod model;
#[path = "../../../beamr-otel/tests/support/receiver.rs"]
pub mod receiver;
