//! [`OtelTracer`]: beamr-trace's `Tracer`, turning trace events into
//! OpenTelemetry logs, spans and metrics.
//!
//! # Cost
//!
//! [`Tracer::enabled`] is one load of a tag mask and a bit test. The mask
//! holds the tags the installed signals use (table below); a tracer without
//! a pipeline ([`OtelTracer::disabled`]) has an empty mask, so it answers
//! `Discard` to everything and the runtime never builds an event for it.
//!
//! | signal | tags |
//! |---|---|
//! | logs | `spawn`, `exit`, `link` |
//! | traces | `call`, `return_from`, `exception_from`, `send`, `send_to_non_existing_process`, `'receive'`, `exit` |
//! | metrics | `send`, `send_to_non_existing_process`, `'receive'`, `spawn`, `exit`, `gc_*` |
//!
//! # Threads and what blocks
//!
//! Every method runs on the caller's thread (a scheduler's, for probes). It
//! may lock one shard of the process table ([`crate::procs`]) while it
//! starts or ends a span, and it copies what it keeps into strings. Ended
//! spans and emitted records go to bounded queues with `try_send`
//! ([`crate::batch`]); nothing here waits for the exporter.

use std::sync::Arc;

use beamr_core::term::Term;
use beamr_trace::{
    Decision, Payload, TraceContext, TraceEvent, TraceTag, Tracee, TraceeId, Tracer,
};

use crate::clock::Clock;
use crate::context;
use crate::exit;
use crate::lifecycle::{At, Lifecycle};
use crate::metrics::RuntimeMetrics;
use crate::procs::ProcTable;
use crate::spans::Spans;

/// What a pipeline hands its tracers.
#[derive(Debug)]
pub(crate) struct Backend {
    pub(crate) logs: Option<Lifecycle>,
    pub(crate) spans: Option<Spans>,
    pub(crate) metrics: Option<Arc<RuntimeMetrics>>,
    pub(crate) procs: ProcTable,
    pub(crate) clock: Clock,
}

const fn bits(tags: &[TraceTag]) -> u64 {
    let mut m = 0;
    let mut i = 0;
    while i < tags.len() {
        m |= 1 << tags[i] as u16;
        i += 1;
    }
    m
}

const LOG_TAGS: u64 = bits(&[TraceTag::Spawn, TraceTag::Exit, TraceTag::Link]);
const SPAN_TAGS: u64 = bits(&[
    TraceTag::Call,
    TraceTag::ReturnFrom,
    TraceTag::ExceptionFrom,
    TraceTag::Send,
    TraceTag::SendToNonExistingProcess,
    TraceTag::Receive,
    TraceTag::Exit,
]);
const METRIC_TAGS: u64 = bits(&[
    TraceTag::Send,
    TraceTag::SendToNonExistingProcess,
    TraceTag::Receive,
    TraceTag::Spawn,
    TraceTag::Exit,
    TraceTag::GcMinorStart,
    TraceTag::GcMinorEnd,
    TraceTag::GcMajorStart,
    TraceTag::GcMajorEnd,
]);

/// The OpenTelemetry trace backend. Cheap to clone; clones share one
/// pipeline.
#[derive(Clone, Debug)]
pub struct OtelTracer {
    backend: Option<Arc<Backend>>,
    mask: u64,
}

fn pid_of(t: Tracee) -> u64 {
    match t.id {
        TraceeId::Pid(n) => n,
        TraceeId::Port(n) => n | 1 << 63,
    }
}

impl OtelTracer {
    /// A tracer with no pipeline: it wants no event and costs one load and
    /// a branch per probe.
    pub fn disabled() -> OtelTracer {
        OtelTracer {
            backend: None,
            mask: 0,
        }
    }

    pub(crate) fn new(backend: Arc<Backend>) -> OtelTracer {
        let mut mask = 0;
        if backend.logs.is_some() {
            mask |= LOG_TAGS;
        }
        if backend.spans.is_some() {
            mask |= SPAN_TAGS;
        }
        if backend.metrics.is_some() {
            mask |= METRIC_TAGS;
        }
        OtelTracer {
            backend: Some(backend),
            mask,
        }
    }

    /// True if this tracer has a pipeline.
    pub fn is_enabled(&self) -> bool {
        self.backend.is_some()
    }

    /// Pairs the runtime's monotonic clock reading `now_ns` with the wall
    /// clock (see `clock`); the runtime calls it once, at start.
    pub fn anchor_clock(&self, now_ns: u64) {
        if let Some(b) = &self.backend {
            b.clock.anchor(now_ns);
        }
    }

    fn wants(&self, tag: TraceTag) -> bool {
        self.mask & (1 << tag as u16) != 0
    }

    /// The context a message sent now by `sender` should carry when its
    /// send is not traced: the sender's current span, if sampled.
    pub fn current_context(&self, sender: Tracee) -> Option<TraceContext> {
        let b = self.backend.as_ref()?;
        b.procs
            .current(pid_of(sender))
            .and_then(|sc| context::carried(&sc))
    }

    fn exit(&self, b: &Backend, event: &TraceEvent<'_>, reason: Term) {
        let pid = pid_of(event.tracee);
        let t = b.clock.system_time(event.timestamp_ns);
        let mut state = b.procs.take(pid);
        let info = exit::classify(reason);
        if let Some(logs) = &b.logs {
            let span = state.as_ref().and_then(|s| s.current());
            logs.exited(&At { time: t, span }, event.tracee, reason, &info);
        }
        if let Some(m) = &b.metrics {
            m.exited(info.class);
        }
        if let (Some(spans), Some(st)) = (&b.spans, state.as_mut()) {
            spans.exit(st, info.crashed.then_some(info.reason.as_str()), t);
        }
    }

    fn gc(&self, b: &Backend, event: &TraceEvent<'_>) {
        let pid = pid_of(event.tracee);
        match event.tag {
            TraceTag::GcMinorStart | TraceTag::GcMajorStart => {
                b.procs
                    .with(pid, |st| st.gc_start_ns = Some(event.timestamp_ns));
            }
            _ => {
                let start = b.procs.with(pid, |st| st.gc_start_ns.take());
                let secs = start.map(|s| event.timestamp_ns.saturating_sub(s) as f64 / 1e9);
                if let Some(m) = &b.metrics {
                    m.gc(event.tag == TraceTag::GcMajorEnd, secs);
                }
            }
        }
    }
}

impl Tracer for OtelTracer {
    /// Logs `process.monitored`: `watcher` set a monitor on `target` with
    /// `reference`. The runtime calls it where `erlang:monitor/2` succeeds
    /// (the BEAM has no monitor trace tag).
    fn monitor(&self, watcher: Tracee, target: Term, reference: Term, timestamp_ns: u64) {
        let Some(b) = &self.backend else { return };
        if let Some(logs) = &b.logs {
            let at = At {
                time: b.clock.system_time(timestamp_ns),
                span: b.procs.current(pid_of(watcher)),
            };
            logs.monitored(&at, watcher, target, reference);
        }
    }

    /// Traces a `send` (or `send_to_non_existing_process`) event and
    /// returns the context the message carries: `Some` only when the
    /// PRODUCER span is sampled (see `context`).
    fn trace_send(&self, event: &TraceEvent<'_>) -> Option<TraceContext> {
        let b = self.backend.as_ref()?;
        let Payload::Message { message, peer, .. } = event.payload else {
            return None;
        };
        let delivered = event.tag == TraceTag::Send;
        if let Some(m) = &b.metrics {
            m.sent();
        }
        let spans = b.spans.as_ref()?;
        let to = peer.unwrap_or(Term::NIL);
        let t = b.clock.system_time(event.timestamp_ns);
        b.procs.with(pid_of(event.tracee), |st| {
            spans.send(st, event.tracee, to, message, delivered, t)
        })
    }

    /// Traces a `'receive'` event whose message carried `carried` (see
    /// `context`).
    fn trace_receive(&self, event: &TraceEvent<'_>, carried: Option<TraceContext>) {
        let Some(b) = &self.backend else { return };
        let Payload::Message { message, .. } = event.payload else {
            return;
        };
        if let Some(m) = &b.metrics {
            m.received();
        }
        if let Some(spans) = &b.spans {
            let t = b.clock.system_time(event.timestamp_ns);
            b.procs.with(pid_of(event.tracee), |st| {
                spans.receive(st, event.tracee, message, carried, t)
            });
        }
    }

    #[inline]
    fn enabled(&self, tag: TraceTag, _tracee: Tracee) -> Decision {
        if self.wants(tag) {
            Decision::Trace
        } else {
            Decision::Discard
        }
    }

    fn trace(&self, event: &TraceEvent<'_>) {
        let Some(b) = &self.backend else { return };
        if !self.wants(event.tag) {
            return;
        }
        let pid = pid_of(event.tracee);
        match event.payload {
            Payload::Message { .. } => match event.tag {
                TraceTag::Receive => self.trace_receive(event, None),
                _ => {
                    let _ = self.trace_send(event);
                }
            },
            Payload::Call { mfa, args, .. } => {
                if let Some(spans) = &b.spans {
                    let t = b.clock.system_time(event.timestamp_ns);
                    b.procs
                        .with(pid, |st| spans.call(st, event.tracee, mfa, args, t));
                }
            }
            Payload::Return { mfa, value } => {
                if let Some(spans) = &b.spans {
                    let t = b.clock.system_time(event.timestamp_ns);
                    b.procs.with(pid, |st| spans.returned(st, mfa, value, t));
                }
            }
            Payload::Exception { mfa, class, reason } => {
                if let Some(spans) = &b.spans {
                    let t = b.clock.system_time(event.timestamp_ns);
                    b.procs
                        .with(pid, |st| spans.raised(st, mfa, class.name(), reason, t));
                }
            }
            Payload::Spawn { other, mfa, .. } if event.tag == TraceTag::Spawn => {
                if let Some(m) = &b.metrics {
                    m.spawned();
                }
                if let Some(logs) = &b.logs {
                    let at = At {
                        time: b.clock.system_time(event.timestamp_ns),
                        span: b.procs.current(pid),
                    };
                    logs.spawned(&at, event.tracee, other, mfa);
                }
            }
            Payload::Exit { reason } => self.exit(b, event, reason),
            Payload::Link { peer } if event.tag == TraceTag::Link => {
                if let Some(logs) = &b.logs {
                    let at = At {
                        time: b.clock.system_time(event.timestamp_ns),
                        span: b.procs.current(pid),
                    };
                    logs.linked(&at, event.tracee, peer);
                }
            }
            Payload::Gc(_) => self.gc(b, event),
            _ => {}
        }
    }
}
