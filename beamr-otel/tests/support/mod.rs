//! Shared by the integration tests: a loopback OTLP receiver, a plain model
//! of what it received, and a three-process scenario fed as trace events.
#![allow(dead_code)]

pub mod model;
pub mod receiver;
pub mod scenario;
