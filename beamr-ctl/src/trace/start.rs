//! Starting a client's trace session (steps 1 and 2 of [`super`]) and
//! ending it (step 4).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex};

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_otel::{Config, Pipeline};
use beamr_ringbuf::{Options, Recorder, RingTracer};
use beamr_sched::code::CodeServer;
use beamr_sched::runtime::Runtime;
use beamr_sched::trace::call_patterns;
use beamr_sched::trace::{Session, SessionTracer};
use beamr_trace::clock::now_ns;
use beamr_trace::{Layered, Limits, TextTracer, TraceFlags, Tracer};

use super::meter::Meter;
use super::sink;
use crate::agent;
use crate::protocol::{TracePattern, TraceRequest, TraceTo};

/// The name of every client's session (`trace:session_info/1` shows it
/// with its number).
pub const SESSION_NAME: &str = "beamr_ctl";

/// A client's session while it traces.
pub struct ActiveTrace {
    session: Arc<Session>,
    meter: Arc<Layered<Meter, Arc<dyn Tracer>>>,
    /// A text trace's lines and the count of those the channel dropped.
    lines: Option<(Receiver<String>, Arc<AtomicU64>)>,
    ring: Option<Arc<RingTracer>>,
    /// An OTLP export's pipeline, until the session ends.
    otel: Mutex<Option<Pipeline>>,
    /// How many processes and functions the agent set flags and patterns on.
    pub processes: u64,
    /// See `processes`.
    pub functions: u64,
    limit: Option<u64>,
}

impl ActiveTrace {
    /// `beamr_ctl N`: the session as `trace:session_info/1` names it.
    pub fn name(&self) -> String {
        format!(
            "{SESSION_NAME} {}",
            self.session.weak_id().unwrap_or_default()
        )
    }

    /// A text trace's lines.
    pub fn lines(&self) -> Option<&Receiver<String>> {
        self.lines.as_ref().map(|(rx, _)| rx)
    }

    /// Events recorded.
    pub fn recorded(&self) -> u64 {
        self.meter.layer().recorded()
    }

    /// Events dropped, by the rate limit or a full line channel.
    pub fn dropped(&self) -> u64 {
        let channel = self
            .lines
            .as_ref()
            .map_or(0, |(_, d)| d.load(Ordering::Relaxed));
        self.meter.layer().dropped() + channel
    }

    /// True once the limit's events are recorded.
    pub fn limit_reached(&self) -> bool {
        self.limit.is_some_and(|n| self.recorded() >= n)
    }

    /// Ends the session: its flags leave every process, its patterns every
    /// function; an OTLP export sends what is left and stops. What it could
    /// not export or had to drop is the error.
    pub fn end(&self, rt: &Runtime) -> Result<(), String> {
        rt.end_trace_session(&self.session);
        call_patterns::clear_session(CodeServer::global(), &self.session);
        if let Some(ring) = &self.ring {
            ring.recorder().count_dropped(self.meter.layer().dropped());
        }
        let pipeline = self.otel.lock().unwrap_or_else(|e| e.into_inner()).take();
        let Some(pipeline) = pipeline else {
            return Ok(());
        };
        // Flushed first, so that the counts include the last export.
        let flushed = pipeline.force_flush();
        let stats = pipeline.stats();
        let stopped = pipeline.shutdown();
        let (spans, logs) = (stats.spans, stats.logs);
        if spans.dropped + spans.failed + logs.dropped + logs.failed > 0 {
            return Err(format!(
                "otel: {} spans and {} log records dropped (export queue full), {} and {} lost in failed exports",
                spans.dropped, logs.dropped, spans.failed, logs.failed
            ));
        }
        flushed.and(stopped).map_err(|e| format!("otel: {e}"))
    }
}

/// The destination's tracer, and the text channel, ring or OTLP pipeline
/// it feeds.
struct Destination {
    tracer: Arc<dyn Tracer>,
    lines: Option<(Receiver<String>, Arc<AtomicU64>)>,
    ring: Option<Arc<RingTracer>>,
    otel: Option<Pipeline>,
}

impl Destination {
    fn new(tracer: Arc<dyn Tracer>) -> Destination {
        Destination {
            tracer,
            lines: None,
            ring: None,
            otel: None,
        }
    }
}

fn destination(rt: &Runtime, to: &TraceTo) -> Result<Destination, String> {
    match to {
        TraceTo::Text => {
            let (sink, rx, dropped) = sink::channel();
            let text: Arc<dyn Tracer> = Arc::new(TextTracer::new(Box::new(sink)));
            Ok(Destination {
                lines: Some((rx, dropped)),
                ..Destination::new(text)
            })
        }
        TraceTo::Ring { path } => {
            let schedulers = rt.stats().run_queue_lengths.len();
            let options = Options::new(schedulers + 1).path(path).preserve(true);
            let recorder = Recorder::create(options).map_err(|e| format!("ring:{path}: {e}"))?;
            let ring = Arc::new(RingTracer::new(recorder));
            Ok(Destination {
                ring: Some(ring.clone()),
                ..Destination::new(ring)
            })
        }
        TraceTo::Otel { settings } => {
            let setting = |name: &str| {
                settings
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| v.clone())
            };
            let mut config =
                Config::from_lookup(|name| setting(name).or_else(|| std::env::var(name).ok()));
            // opentelemetry-otlp would read the runtime's own variable.
            if let Some(endpoint) = setting("OTEL_EXPORTER_OTLP_ENDPOINT") {
                config.endpoint = Some(endpoint);
            }
            let pipeline = Pipeline::start(config).map_err(|e| format!("otel: {e}"))?;
            let tracer = pipeline.tracer();
            tracer.anchor_clock(now_ns());
            Ok(Destination {
                otel: Some(pipeline),
                ..Destination::new(Arc::new(tracer))
            })
        }
    }
}

/// Starts tracing as `request` asks, in a session of its own.
pub fn start(rt: &Runtime, request: &TraceRequest) -> Result<ActiveTrace, String> {
    for flag in &request.flags {
        if TraceFlags::from_atom_name(flag.trim_matches('\'')).is_none() {
            return Err(format!(
                "unknown trace flag `{flag}` (erlang:trace/3's names: send, receive, procs, call, ...)"
            ));
        }
    }
    if request.pids.is_empty() {
        return Err("no processes to trace".into());
    }
    if request.limit == Some(0) || request.rate == Some(0) {
        return Err("a limit or a rate of 0 events traces nothing".into());
    }
    let Destination {
        tracer,
        lines,
        ring,
        otel,
    } = destination(rt, &request.to)?;
    let limits = Limits {
        total: request.limit,
        per_second: request.rate,
    };
    let meter = Arc::new(Layered::new(Meter::new(limits), tracer));
    let name = Atom::new(SESSION_NAME).map_err(|e| e.to_string())?;
    let module_tracer: Arc<dyn Tracer> = meter.clone();
    let session = Session::create_unheld(
        name,
        Some(SessionTracer::Module(module_tracer)),
        rt.new_ref_ids(),
    );
    let mut active = ActiveTrace {
        session,
        meter,
        lines,
        ring,
        otel: Mutex::new(otel),
        processes: 0,
        functions: 0,
        limit: request.limit,
    };
    match set_up(rt, &active.session, request) {
        Ok((processes, functions)) => {
            active.processes = processes;
            active.functions = functions;
            Ok(active)
        }
        Err(e) => {
            let _ = active.end(rt);
            Err(e)
        }
    }
}

/// Step 2: the agent sets the patterns and the flags; the numbers of
/// processes and functions.
fn set_up(rt: &Runtime, session: &Session, request: &TraceRequest) -> Result<(u64, u64), String> {
    let weak_id = session.weak_id().unwrap_or_default();
    let weak_id = i64::try_from(weak_id).map_err(|_| "too many trace sessions".to_string())?;
    let name = session.name();
    let binaries = |heap: &mut Heap, items: &[String]| {
        let items: Vec<Term> = items
            .iter()
            .map(|s| heap.binary(s.trim_matches('\'').as_bytes()))
            .collect();
        heap.list(&items)
    };
    let value = agent::call(rt, "trace_start", |heap| {
        let pids = binaries(heap, &request.pids);
        let flags = binaries(heap, &request.flags);
        let patterns: Vec<Term> = request
            .patterns
            .iter()
            .map(|p| pattern_term(heap, p))
            .collect();
        let patterns = heap.list(&patterns);
        vec![Term::atom(name), heap.int(weak_id), pids, flags, patterns]
    })?;
    match value.term().as_tuple() {
        Some(&[processes, functions]) => Ok((
            processes.as_small().map_or(0, |n| n.max(0) as u64),
            functions.as_small().map_or(0, |n| n.max(0) as u64),
        )),
        _ => Err("the agent's trace_start/5 answered no {Processes, Functions}".into()),
    }
}

/// `{M, F, Arity | '_', SpecText}`, binaries for the names.
fn pattern_term(heap: &mut Heap, p: &TracePattern) -> Term {
    let arity = match p.arity {
        Some(n) => heap.int(i64::from(n)),
        None => Term::atom(Atom::new("_").expect("a short atom name")),
    };
    let m = heap.binary(p.module.as_bytes());
    let f = heap.binary(p.function.as_bytes());
    let spec = heap.binary(p.spec.as_bytes());
    heap.tuple(&[m, f, arity, spec])
}
