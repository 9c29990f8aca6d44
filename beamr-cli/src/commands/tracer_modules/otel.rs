//! `beamr_otel_tracer`: OpenTelemetry as a tracer module.
//!
//! `{tracer, beamr_otel_tracer, #{}}` exports the tracee's events over
//! OTLP as `beamr run --trace-to otel` does (lifecycle log records,
//! message and call spans), configured by the standard `OTEL_*`
//! variables. Options override them:
//!
//! - `service_name`: the resource's `service.name`.
//! - `endpoint`: the collector's base URL.
//! - `protocol`: `grpc`, `http/protobuf` or `http/json`.
//!
//! One pipeline serves the whole run: the first use starts it with its
//! options, later uses share it (their options must be the same, or
//! none). It is flushed and shut down when the run ends. Runtime metrics
//! are not sampled through it (`--trace-to otel` does that).

use std::sync::{Arc, Mutex};

use beamr_core::term::Term;
use beamr_otel::{Config, OtelTracer, Pipeline, Protocol};
use beamr_sched::trace::tracer_module::TracerModule;
use beamr_trace::clock::now_ns;
use beamr_trace::Tracer;

use super::state::{options, text};

/// The `beamr_otel_tracer` module: the run's pipeline once started.
#[derive(Default)]
pub struct OtelModule {
    started: Mutex<Option<Started>>,
}

struct Started {
    pipeline: Pipeline,
    tracer: Arc<OtelTracer>,
    overrides: Vec<(&'static str, String)>,
}

impl OtelModule {
    /// Flushes and shuts the pipeline down, if one was started; what it
    /// could not export is the error.
    pub fn finish(&self) -> Result<(), String> {
        let started = self
            .started
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        match started {
            Some(s) => s
                .pipeline
                .shutdown()
                .map_err(|e| format!("beamr_otel_tracer: {e}")),
            None => Ok(()),
        }
    }
}

/// The configuration `overrides` make of the `OTEL_*` variables'.
fn config(overrides: &[(&'static str, String)]) -> Result<Config, String> {
    let mut config = Config::from_env();
    for (name, value) in overrides {
        match *name {
            "service_name" => config.service_name = value.clone(),
            "endpoint" => config.endpoint = Some(value.clone()),
            _ => {
                config.protocol =
                    Protocol::parse(value).ok_or("protocol is grpc, http/protobuf or http/json")?
            }
        }
    }
    Ok(config)
}

impl TracerModule for OtelModule {
    fn open(&self, state: Term) -> Result<Arc<dyn Tracer>, String> {
        let mut overrides = Vec::new();
        for (name, value) in options(state, &["service_name", "endpoint", "protocol"])? {
            let value = text(value).ok_or_else(|| format!("{name} is a string"))?;
            overrides.push((name, value));
        }
        overrides.sort();
        let mut started = self.started.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = started.as_ref() {
            if !overrides.is_empty() && overrides != s.overrides {
                return Err("the run's pipeline was started with other options".into());
            }
            return Ok(s.tracer.clone());
        }
        let pipeline = Pipeline::start(config(&overrides)?).map_err(|e| e.to_string())?;
        let tracer = Arc::new(pipeline.tracer());
        tracer.anchor_clock(now_ns());
        *started = Some(Started {
            pipeline,
            tracer: tracer.clone(),
            overrides,
        });
        Ok(tracer)
    }
}
