//! `beamr run --trace FLAGS --trace-to DEST`: tracing a whole run.
//!
//! FLAGS are `erlang:trace/3`'s flag names, comma-separated (`send,receive,procs`,
//! `all`); every process of the run is traced with them, as
//! `erlang:trace(new, true, Flags)` before the first process starts would.
//! `--trace-call MOD:FUN[/ARITY][:x]` (repeatable) adds a local call trace
//! pattern on the functions it names, exported or not, as
//! `erlang:trace_pattern({M, F, A}, true | [{'_', [], [{exception_trace}]}], [local])`
//! (`dbg:tpl`) would: every call fires it, the recursive and other local
//! calls too (`:x` traces returns and exceptions too); the module is loaded
//! first, and the `call` flag is implied.
//! `--trace-pids WHO` narrows the processes traced: `all` (the default:
//! every process, the runtime's own included, from its start), `main` (the
//! process that runs MOD:FUN, from its first instruction; add
//! `set_on_spawn` to FLAGS to follow the processes it spawns, and theirs),
//! or `new` (every process spawned once MOD:FUN starts, the main one
//! first, but not the runtime's own, which start before it).
//! DEST is where the events go: `text`, a line per event on standard
//! error as OTP's `dbg` prints it with its default handler
//! (`(<0.81.0>) << hello`, `(<0.81.0>) call m:f(1)`; beamr-trace's
//! `text` module has every shape), standard output staying the program's;
//! `text:FILE`, the same lines in FILE;
//! `ring:FILE`, a ring-buffer trace file (one
//! ring per scheduler and one for other threads) that `beamr trace` reads;
//! `otel`, OpenTelemetry log records, spans and metrics exported over OTLP
//! as the standard `OTEL_*` variables say (beamr-otel's `Config::from_env`);
//! the runtime carries each traced send's context with its message, so the
//! receiver's CONSUMER span continues the sender's trace. The export runs
//! on its own threads behind bounded queues: what a run produces faster
//! than the exporter sends it is dropped, and told on standard error at
//! the end (`beamr: otel: N spans ... dropped`). With `otel`, `--trace-call`
//! always traces returns and exceptions (`:x` or not): a call's span lasts
//! until one of them.
//!
//! A ring file also records the run's `seq_trace` events (those its tokens'
//! flags ask for), which `beamr trace seq` draws.
//! `--trace-limit N` and `--trace-rate N` put the destination behind
//! limits (N events in all; N events a second), as `recon_trace` does: the
//! events past them are dropped before they are built, and counted: in the
//! ring file's header (`beamr trace stats` shows them) and on standard
//! error at the end of the run.

use std::path::PathBuf;
use std::sync::{Arc, Weak};

use beamr_core::atom::Atom;
use beamr_otel::{Config, ExportStats, Pipeline, RuntimeSnapshot, Sampler};
use beamr_ringbuf::{Options, Recorder, RingTracer};
use beamr_sched::code::CodeServer;
use beamr_sched::runtime::Runtime;
use beamr_sched::trace::call_patterns::{self, Change, Spec};
use beamr_sched::trace::{pattern, ProcessTrace, ProgramScope, Session};
use beamr_trace::clock::now_ns;
use beamr_trace::{limited, LimitedTracer, Limits, TextTracer, TraceFlags, Tracer};

/// Parsed `--trace`, `--trace-call` and `--trace-to` options.
#[derive(Debug, PartialEq, Eq)]
pub struct TraceSetup {
    /// The flags every process is traced with.
    pub flags: TraceFlags,
    /// The call patterns to set.
    pub calls: Vec<CallPattern>,
    /// Where the events go.
    pub destination: Destination,
    /// Limits on the events recorded (`--trace-limit`, `--trace-rate`).
    pub limits: Limits,
    /// The processes traced (`--trace-pids`).
    pub pids: Pids,
}

/// `--trace-pids`: which processes of the run are traced.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Pids {
    /// Every process, from the start of the runtime.
    #[default]
    All,
    /// The program's, as [`ProgramScope`] says.
    Program(ProgramScope),
}

impl Pids {
    /// Parses `all`, `main` or `new`.
    pub fn parse(text: &str) -> Result<Pids, String> {
        match text {
            "all" => Ok(Pids::All),
            "main" => Ok(Pids::Program(ProgramScope::Main)),
            "new" => Ok(Pids::Program(ProgramScope::New)),
            _ => Err(format!(
                "--trace-pids `{text}`: expected all, main (the process running MOD:FUN) or new (every process spawned once it starts)"
            )),
        }
    }
}

/// One `--trace-call MOD:FUN[/ARITY][:x]`.
#[derive(Debug, PartialEq, Eq)]
pub struct CallPattern {
    /// The module.
    pub module: String,
    /// The function.
    pub function: String,
    /// The arity; `None` for every arity.
    pub arity: Option<u32>,
    /// `:x`: returns and exceptions too.
    pub returns: bool,
}

impl CallPattern {
    /// Loads the module and sets the pattern, with returns and exceptions
    /// when `returns` (or `:x`) says so; an error when nothing matches.
    fn set(&self, returns: bool) -> Result<(), String> {
        let atom = |s: &str| Atom::new(s).map_err(|e| format!("--trace-call: {e}"));
        let module = atom(&self.module)?;
        let function = atom(&self.function)?;
        let code = CodeServer::global();
        code.ensure_loaded(module)
            .map_err(|e| format!("--trace-call {}: {e}", self.module))?;
        if code.current(module).is_none() {
            return Err(format!(
                "--trace-call: no module {} on the code path",
                self.module
            ));
        }
        let flags = if self.returns || returns {
            pattern::RETURN_TRACE | pattern::EXCEPTION_TRACE
        } else {
            0
        };
        let local = Change::Call(Some(call_patterns::CallPattern {
            local: true,
            spec: Spec { flags, ms: None },
        }));
        if call_patterns::apply(
            CodeServer::global(),
            Session::legacy(),
            Some(module),
            Some(function),
            self.arity,
            &[local],
        ) == 0
        {
            return Err(format!(
                "--trace-call {}:{}{}: no such function",
                self.module,
                self.function,
                self.arity.map(|a| format!("/{a}")).unwrap_or_default()
            ));
        }
        Ok(())
    }

    fn parse(text: &str) -> Result<CallPattern, String> {
        let bad = || {
            format!("--trace-call `{text}`: expected MOD:FUN or MOD:FUN/ARITY, optionally followed by :x")
        };
        let (mfa, returns) = match text.strip_suffix(":x") {
            Some(rest) => (rest, true),
            None => (text, false),
        };
        let (module, fa) = mfa.split_once(':').ok_or_else(bad)?;
        let (function, arity) = match fa.split_once('/') {
            Some((f, a)) => (f, Some(a.parse::<u32>().map_err(|_| bad())?)),
            None => (fa, None),
        };
        if module.is_empty() || function.is_empty() || function.contains(':') {
            return Err(bad());
        }
        Ok(CallPattern {
            module: module.to_owned(),
            function: function.to_owned(),
            arity,
            returns,
        })
    }
}

/// Where a traced run's events go.
#[derive(Debug, PartialEq, Eq)]
pub enum Destination {
    /// A ring-buffer trace file.
    Ring(PathBuf),
    /// OpenTelemetry over OTLP.
    Otel,
    /// Lines of text as `dbg` prints them: to a file, or to standard
    /// error (`None`).
    Text(Option<PathBuf>),
}

/// The run's tracer behind its limits, when it has any.
type Limited = Option<Arc<LimitedTracer<Arc<dyn Tracer>>>>;

/// A destination receiving a run's events; [`ActiveTrace::finish`] after
/// the run.
pub enum ActiveTrace {
    /// The ring-buffer file's tracer (the file stays when it drops).
    Ring(Arc<RingTracer>, Limited),
    /// The OTLP pipeline, shut down (flushing what is queued) at the end,
    /// and the sampler that feeds it runtime snapshots.
    Otel(Pipeline, Option<Sampler>, Limited),
    /// The text writer, flushed at the end.
    Text(Arc<TextTracer>, Limited),
}

/// `tracer`, behind `limits` when there are any: the tracer to install and
/// the limited one to ask for its drops.
fn limit(tracer: Arc<dyn Tracer>, limits: Limits) -> (Arc<dyn Tracer>, Limited) {
    if limits.is_none() {
        return (tracer, None);
    }
    let limited = Arc::new(limited(tracer, limits));
    (limited.clone(), Some(limited))
}

/// Tells of the events the limits dropped, on standard error; the count.
fn report_dropped(limited: &Limited) -> u64 {
    let dropped = limited.as_ref().map_or(0, |l| l.layer().dropped());
    if dropped > 0 {
        eprintln!("beamr: trace: {dropped} events dropped by --trace-limit/--trace-rate");
    }
    dropped
}

/// The line telling what the OTLP pipeline's queues dropped and its
/// failed exports lost during the run (its last export is not counted);
/// `None` when nothing was.
fn otel_losses(stats: &ExportStats) -> Option<String> {
    let (spans, logs) = (stats.spans, stats.logs);
    if spans.dropped + spans.failed + logs.dropped + logs.failed == 0 {
        return None;
    }
    Some(format!(
        "beamr: otel: {} spans and {} log records dropped (export queue full), \
         {} and {} lost in failed exports; {} spans and {} log records exported during the run",
        spans.dropped, logs.dropped, spans.failed, logs.failed, spans.exported, logs.exported
    ))
}

impl ActiveTrace {
    /// Ends the trace: flushes and stops an OTLP pipeline.
    pub fn finish(self) -> Result<(), String> {
        match self {
            ActiveTrace::Ring(tracer, limited) => {
                tracer.recorder().count_dropped(report_dropped(&limited));
                drop(tracer);
                Ok(())
            }
            ActiveTrace::Text(tracer, limited) => {
                report_dropped(&limited);
                tracer.flush().map_err(|e| format!("--trace-to text: {e}"))
            }
            ActiveTrace::Otel(pipeline, sampler, limited) => {
                report_dropped(&limited);
                drop(sampler);
                // What the run produced faster than the exporter took it.
                let stats = pipeline.stats();
                let result = pipeline
                    .shutdown()
                    .map_err(|e| format!("--trace-to otel: {e}"));
                if let Some(line) = otel_losses(&stats) {
                    eprintln!("{line}");
                }
                result
            }
        }
    }
}

impl TraceSetup {
    /// Parses the two options; `None` when neither is given.
    pub fn parse(
        flags: Option<&str>,
        calls: &[String],
        to: Option<&str>,
    ) -> Result<Option<TraceSetup>, String> {
        let tracing = flags.is_some() || !calls.is_empty();
        let to = match (tracing, to) {
            (false, None) => return Ok(None),
            (true, None) => return Err("--trace needs --trace-to ring:FILE or otel".into()),
            (false, Some(_)) => return Err("--trace-to needs --trace FLAGS or --trace-call".into()),
            (true, Some(t)) => t,
        };
        let calls = calls
            .iter()
            .map(|c| CallPattern::parse(c))
            .collect::<Result<Vec<_>, _>>()?;
        let mut set = if calls.is_empty() {
            TraceFlags::empty()
        } else {
            TraceFlags::CALL
        };
        let names = flags.unwrap_or("").split(',').map(str::trim);
        for name in names.filter(|n| !n.is_empty()) {
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
            Some(("text", file)) if !file.is_empty() => {
                Destination::Text(Some(PathBuf::from(file)))
            }
            Some(("text", _)) => {
                return Err("--trace-to text: needs a file name (text:FILE), or none (text)".into())
            }
            _ if to == "otel" => Destination::Otel,
            _ if to == "text" => Destination::Text(None),
            _ => {
                return Err(format!(
                    "--trace-to `{to}`: expected ring:FILE, text, text:FILE or otel"
                ))
            }
        };
        Ok(Some(TraceSetup {
            flags: set,
            calls,
            destination,
            limits: Limits::default(),
            pids: Pids::All,
        }))
    }

    /// The setup with `--trace-pids` (`None`: all).
    pub fn with_pids(mut self, pids: Option<&str>) -> Result<TraceSetup, String> {
        if let Some(text) = pids {
            self.pids = Pids::parse(text)?;
        }
        Ok(self)
    }

    /// Makes `rt` trace the processes `--trace-pids` names with the flags,
    /// reporting to `tracer`.
    fn trace_processes(&self, rt: &Runtime, tracer: Arc<dyn Tracer>) {
        let trace = ProcessTrace::new(self.flags, tracer);
        match self.pids {
            Pids::All => rt.trace.set_new_processes(trace),
            Pids::Program(scope) => rt.trace.set_program(trace, scope),
        }
    }

    /// The setup with `--trace-limit` (`total`) and `--trace-rate`
    /// (`per_second`); an error for a zero.
    pub fn with_limits(
        mut self,
        total: Option<u64>,
        per_second: Option<u64>,
    ) -> Result<TraceSetup, String> {
        if total == Some(0) || per_second == Some(0) {
            return Err("--trace-limit and --trace-rate take a number of events above 0".into());
        }
        self.limits = Limits { total, per_second };
        Ok(self)
    }

    /// Creates the destination and makes `rt` trace every new process with
    /// the flags. The returned trace must outlive the run.
    pub fn install(&self, rt: &Arc<Runtime>, schedulers: usize) -> Result<ActiveTrace, String> {
        // Patterns first: a bad one stops the run before any file is made.
        for call in &self.calls {
            // A call span lasts from the call to its return or exception,
            // so OTel needs those events whether or not `:x` asks.
            call.set(self.destination == Destination::Otel)?;
        }
        self.install_destination(rt, schedulers)
    }

    fn install_destination(
        &self,
        rt: &Arc<Runtime>,
        schedulers: usize,
    ) -> Result<ActiveTrace, String> {
        match &self.destination {
            Destination::Ring(path) => {
                let options = Options::new(schedulers + 1).path(path).preserve(true);
                let recorder = Recorder::create(options)
                    .map_err(|e| format!("--trace-to ring:{}: {e}", path.display()))?;
                let ring = Arc::new(RingTracer::new(recorder));
                let (tracer, limited) = limit(ring.clone(), self.limits);
                self.trace_processes(rt, tracer.clone());
                rt.trace.seq.set_observer(tracer);
                Ok(ActiveTrace::Ring(ring, limited))
            }
            Destination::Text(path) => {
                let out: Box<dyn std::io::Write + Send> = match path {
                    Some(path) => Box::new(std::io::BufWriter::new(
                        std::fs::File::create(path)
                            .map_err(|e| format!("--trace-to text:{}: {e}", path.display()))?,
                    )),
                    None => Box::new(std::io::stderr()),
                };
                let text = Arc::new(TextTracer::new(out));
                let (tracer, limited) = limit(text.clone(), self.limits);
                self.trace_processes(rt, tracer.clone());
                rt.trace.seq.set_observer(tracer);
                Ok(ActiveTrace::Text(text, limited))
            }
            Destination::Otel => {
                let config = Config::from_env();
                let interval = config.metric_interval;
                let pipeline =
                    Pipeline::start(config).map_err(|e| format!("--trace-to otel: {e}"))?;
                let tracer = pipeline.tracer();
                tracer.anchor_clock(now_ns());
                let (tracer, limited) = limit(Arc::new(tracer), self.limits);
                self.trace_processes(rt, tracer);
                // Runtime metrics: a snapshot at each metric interval. The
                // sampler holds the runtime weakly, so it never keeps it up.
                let weak = Arc::downgrade(rt);
                let sampler = pipeline
                    .sample_every(interval, move || snapshot(&weak))
                    .map_err(|e| format!("--trace-to otel: {e}"))?;
                Ok(ActiveTrace::Otel(pipeline, sampler, limited))
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
        let s = TraceSetup::parse(Some("send,'receive',procs"), &[], Some("ring:/tmp/x.trace"))
            .unwrap()
            .unwrap();
        assert_eq!(
            s.flags,
            TraceFlags::SEND | TraceFlags::RECEIVE | TraceFlags::PROCS
        );
        assert_eq!(s.destination, Destination::Ring("/tmp/x.trace".into()));
        assert_eq!(TraceSetup::parse(None, &[], None).unwrap(), None);
    }

    #[test]
    fn bad_options_name_what_is_wrong() {
        let err = |f, t| TraceSetup::parse(f, &[], t).unwrap_err();
        assert!(err(Some("send,bogus"), Some("ring:x")).contains("unknown trace flag `bogus`"));
        assert!(err(Some("send"), None).contains("--trace-to"));
        assert!(err(None, Some("ring:x")).contains("--trace FLAGS or --trace-call"));
        assert!(err(Some("send"), Some("ring:")).contains("file name"));
        assert!(err(Some("send"), Some("text:")).contains("file name"));
        assert!(err(Some("send"), Some("file:x")).contains("expected ring:FILE, text"));
        let text = |t| {
            TraceSetup::parse(Some("send"), &[], Some(t))
                .unwrap()
                .unwrap()
        };
        assert_eq!(text("text").destination, Destination::Text(None));
        assert_eq!(
            text("text:out.txt").destination,
            Destination::Text(Some("out.txt".into()))
        );
        let otel = TraceSetup::parse(Some("procs"), &[], Some("otel"))
            .unwrap()
            .unwrap();
        assert_eq!(otel.destination, Destination::Otel);
    }

    #[test]
    fn trace_pids_take_all_main_or_new() {
        let setup = || {
            TraceSetup::parse(Some("send"), &[], Some("text"))
                .unwrap()
                .unwrap()
        };
        assert_eq!(setup().with_pids(None).unwrap().pids, Pids::All);
        assert_eq!(setup().with_pids(Some("all")).unwrap().pids, Pids::All);
        assert_eq!(
            setup().with_pids(Some("main")).unwrap().pids,
            Pids::Program(ProgramScope::Main)
        );
        assert_eq!(
            setup().with_pids(Some("new")).unwrap().pids,
            Pids::Program(ProgramScope::New)
        );
        for bad in ["", "Main", "<0.80.0>", "main,new", "user"] {
            let err = setup().with_pids(Some(bad)).unwrap_err();
            assert!(err.contains("expected all, main"), "{bad}: {err}");
        }
    }

    #[test]
    fn otel_losses_are_told_only_when_there_are_some() {
        let mut stats = ExportStats::default();
        stats.spans.exported = 9;
        assert_eq!(otel_losses(&stats), None);
        stats.spans.dropped = 5;
        stats.logs.failed = 2;
        let line = otel_losses(&stats).unwrap();
        assert!(
            line.starts_with("beamr: otel: 5 spans and 0 log records dropped"),
            "{line}"
        );
        assert!(
            line.contains("0 and 2 lost in failed exports; 9 spans"),
            "{line}"
        );
    }

    #[test]
    fn call_patterns_parse_and_imply_the_call_flag() {
        let calls = ["m:f/2:x".to_owned(), "m:g".to_owned()];
        let s = TraceSetup::parse(None, &calls, Some("ring:x"))
            .unwrap()
            .unwrap();
        assert_eq!(s.flags, TraceFlags::CALL);
        assert_eq!(
            s.calls,
            [
                CallPattern {
                    module: "m".into(),
                    function: "f".into(),
                    arity: Some(2),
                    returns: true
                },
                CallPattern {
                    module: "m".into(),
                    function: "g".into(),
                    arity: None,
                    returns: false
                },
            ]
        );
        for bad in ["m", "m:", ":f", "m:f/x", "m:f/1:y"] {
            let err = TraceSetup::parse(None, &[bad.to_owned()], Some("ring:x")).unwrap_err();
            assert!(err.contains("expected MOD:FUN"), "{bad}: {err}");
        }
    }
}
