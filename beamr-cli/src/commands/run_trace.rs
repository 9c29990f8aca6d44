//! `beamr run --trace FLAGS --trace-to DEST`: tracing a whole run.
//!
//! FLAGS are `erlang:trace/3`'s flag names, comma-separated (`send,receive,procs`,
//! `all`); every process of the run is traced with them, as
//! `erlang:trace(new, true, Flags)` before the first process starts would.
//! DEST is where the events go: `ring:FILE`, a ring-buffer trace file (one
//! ring per scheduler and one for other threads) that `beamr trace` reads;
//! `otel`, OpenTelemetry log records, spans and metrics exported over OTLP
//! as the standard `OTEL_*` variables say (beamr-otel's `Config::from_env`);
//! the runtime carries each traced send's context with its message, so the
//! receiver's CONSUMER span continues the sender's trace.

use std::path::PathBuf;
use std::sync::{Arc, Weak};

use beamr_otel::{Config, Pipeline, RuntimeSnapshot, Sampler};
use beamr_ringbuf::{Options, Recorder, RingTracer};
use beamr_sched::runtime::Runtime;
use beamr_sched::trace::ProcessTrace;
use beamr_trace::clock::now_ns;
use beamr_trace::TraceFlags;

/// A parsed `--trace`/`--trace-to` pair.
#[derive(Debug, PartialEq, Eq)]
pub struct TraceSetup {
    /// The flags every process is traced with.
    pub flags: TraceFlags,
    /// Where the events go.
    pub destination: Destination,
}

/// Where a traced run's events go.
#[derive(Debug, PartialEq, Eq)]
pub enum Destination {
    /// A ring-buffer trace file.
    Ring(PathBuf),
    /// OpenTelemetry over OTLP.
    Otel,
}

/// A destination receiving a run's events; [`ActiveTrace::finish`] after
/// the run.
pub enum ActiveTrace {
    /// The ring-buffer file's tracer (the file stays when it drops).
    Ring(Arc<RingTracer>),
    /// The OTLP pipeline, shut down (flushing what is queued) at the end,
    /// and the sampler that feeds it runtime snapshots.
    Otel(Pipeline, Option<Sampler>),
}

impl ActiveTrace {
    /// Ends the trace: flushes and stops an OTLP pipeline.
    pub fn finish(self) -> Result<(), String> {
        match self {
            ActiveTrace::Ring(tracer) => {
                drop(tracer);
                Ok(())
            }
            ActiveTrace::Otel(pipeline, sampler) => {
                drop(sampler);
                pipeline
                    .shutdown()
                    .map_err(|e| format!("--trace-to otel: {e}"))
            }
        }
    }
}

impl TraceSetup {
    /// Parses the two options; `None` when neither is given.
    pub fn parse(flags: Option<&str>, to: Option<&str>) -> Result<Option<TraceSetup>, String> {
        let (flags, to) = match (flags, to) {
            (None, None) => return Ok(None),
            (Some(_), None) => return Err("--trace needs --trace-to ring:FILE or otel".into()),
            (None, Some(_)) => return Err("--trace-to needs --trace FLAGS".into()),
            (Some(f), Some(t)) => (f, t),
        };
        let mut set = TraceFlags::empty();
        for name in flags.split(',').map(str::trim) {
            let name = name.trim_matches('\'');
            set |= TraceFlags::from_atom_name(name).ok_or_else(|| {
                format!("--trace: unknown trace flag `{name}` (erlang:trace/3's names, comma-separated, e.g. send,receive,procs)")
            })?;
        }
        let destination = match to.split_once(':') {
            Some(("ring", file)) if !file.is_empty() => Destination::Ring(PathBuf::from(file)),
            Some(("ring", _)) => {
                return Err("--trace-to ring: needs a file name (ring:FILE)".into())
            }
            _ if to == "otel" => Destination::Otel,
            _ if to == "text" => {
                return Err(format!(
                    "--trace-to {to}: not implemented yet (ring:FILE and otel are)"
                ))
            }
            _ => return Err(format!("--trace-to `{to}`: expected ring:FILE or otel")),
        };
        Ok(Some(TraceSetup {
            flags: set,
            destination,
        }))
    }

    /// Creates the destination and makes `rt` trace every new process with
    /// the flags. The returned trace must outlive the run.
    pub fn install(&self, rt: &Arc<Runtime>, schedulers: usize) -> Result<ActiveTrace, String> {
        match &self.destination {
            Destination::Ring(path) => {
                let options = Options::new(schedulers + 1).path(path).preserve(true);
                let recorder = Recorder::create(options)
                    .map_err(|e| format!("--trace-to ring:{}: {e}", path.display()))?;
                let tracer = Arc::new(RingTracer::new(recorder));
                rt.trace
                    .set_new_processes(ProcessTrace::new(self.flags, tracer.clone()));
                Ok(ActiveTrace::Ring(tracer))
            }
            Destination::Otel => {
                let config = Config::from_env();
                let interval = config.metric_interval;
                let pipeline =
                    Pipeline::start(config).map_err(|e| format!("--trace-to otel: {e}"))?;
                let tracer = pipeline.tracer();
                tracer.anchor_clock(now_ns());
                rt.trace
                    .set_new_processes(ProcessTrace::new(self.flags, Arc::new(tracer)));
                // Runtime metrics: a snapshot at each metric interval. The
                // sampler holds the runtime weakly, so it never keeps it up.
                let weak = Arc::downgrade(rt);
                let sampler = pipeline
                    .sample_every(interval, move || snapshot(&weak))
                    .map_err(|e| format!("--trace-to otel: {e}"))?;
                Ok(ActiveTrace::Otel(pipeline, sampler))
            }
        }
    }
}

/// The runtime as beamr-otel's metrics read it (empty once it is gone).
fn snapshot(rt: &Weak<Runtime>) -> RuntimeSnapshot {
    let Some(rt) = rt.upgrade() else {
        return RuntimeSnapshot::default();
    };
    let s = rt.stats();
    RuntimeSnapshot {
        processes: s.processes,
        run_queue_lengths: s.run_queue_lengths,
        reductions: s.reductions,
        heap_bytes: s.heap_words * 8,
        message_queue_lengths: s.message_queue_lengths,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_and_a_ring_file_parse() {
        let s = TraceSetup::parse(Some("send,'receive',procs"), Some("ring:/tmp/x.trace"))
            .unwrap()
            .unwrap();
        assert_eq!(
            s.flags,
            TraceFlags::SEND | TraceFlags::RECEIVE | TraceFlags::PROCS
        );
        assert_eq!(s.destination, Destination::Ring("/tmp/x.trace".into()));
        assert_eq!(TraceSetup::parse(None, None).unwrap(), None);
    }

    #[test]
    fn bad_options_name_what_is_wrong() {
        let err = |f, t| TraceSetup::parse(f, t).unwrap_err();
        assert!(err(Some("send,bogus"), Some("ring:x")).contains("unknown trace flag `bogus`"));
        assert!(err(Some("send"), None).contains("--trace-to"));
        assert!(err(None, Some("ring:x")).contains("--trace FLAGS"));
        assert!(err(Some("send"), Some("ring:")).contains("file name"));
        assert!(err(Some("send"), Some("text")).contains("not implemented"));
        assert!(err(Some("send"), Some("file:x")).contains("expected ring:FILE or otel"));
        let otel = TraceSetup::parse(Some("procs"), Some("otel"))
            .unwrap()
            .unwrap();
        assert_eq!(otel.destination, Destination::Otel);
    }
}
