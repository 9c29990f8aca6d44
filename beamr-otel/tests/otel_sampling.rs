//! Sampling and the disabled tracer, with the SDK's in-memory exporters
//! (no network): an unsampled send carries no context; a carried sampled
//! context is followed whatever the root ratio; without a pipeline every
//! probe is discarded.

use std::time::Duration;

use beamr_core::term::Term;
use beamr_otel::{Config, OtelTracer, Pipeline, SamplerConfig, Signals};
use beamr_trace::{Decision, Payload, TraceEvent, TraceTag, Tracee, Tracer};
use opentelemetry::trace::SpanKind;
use opentelemetry_sdk::logs::InMemoryLogExporter;
use opentelemetry_sdk::metrics::InMemoryMetricExporter;
use opentelemetry_sdk::trace::{InMemorySpanExporter, InMemorySpanExporterBuilder};

fn traces_only(sampler: SamplerConfig) -> (Pipeline, InMemorySpanExporter) {
    let spans = InMemorySpanExporterBuilder::new().build();
    let config = Config {
        sampler,
        signals: Signals {
            logs: false,
            traces: true,
            metrics: false,
        },
        batch_delay: Duration::from_millis(10),
        ..Config::default()
    };
    let p = Pipeline::with_exporters(
        &config,
        Some(spans.clone()),
        None::<InMemoryLogExporter>,
        None::<InMemoryMetricExporter>,
    )
    .unwrap();
    (p, spans)
}

fn send(from: u64, to: u64) -> TraceEvent<'static> {
    TraceEvent::new(
        TraceTag::Send,
        Tracee::pid(from),
        1,
        1,
        Payload::Message {
            message: Term::NIL,
            peer: Some(Term::pid(to)),
            match_spec_result: None,
        },
    )
}

fn receive(at: u64) -> TraceEvent<'static> {
    TraceEvent::new(
        TraceTag::Receive,
        Tracee::pid(at),
        2,
        1,
        Payload::Message {
            message: Term::NIL,
            peer: None,
            match_spec_result: None,
        },
    )
}

#[test]
fn an_unsampled_send_carries_nothing_and_exports_nothing() {
    let (p, spans) = traces_only(SamplerConfig::ParentBasedTraceIdRatio(0.0));
    let t = p.tracer();
    for i in 0..100 {
        assert_eq!(t.trace_send(&send(i, 1000)), None);
    }
    t.trace_receive(&receive(1000), None);
    assert_eq!(t.current_context(Tracee::pid(1000)), None);
    p.force_flush().unwrap();
    assert!(spans.get_finished_spans().unwrap().is_empty());
}

#[test]
fn a_carried_context_is_followed_whatever_the_root_ratio() {
    let (root, _) = traces_only(SamplerConfig::AlwaysOn);
    let carried = root.tracer().trace_send(&send(1, 2)).expect("sampled");
    let (p, spans) = traces_only(SamplerConfig::ParentBasedTraceIdRatio(0.0));
    let t = p.tracer();
    t.trace_receive(&receive(2), Some(carried));
    let forwarded = t
        .current_context(Tracee::pid(2))
        .expect("consumer is current");
    assert_eq!(forwarded.trace_id, carried.trace_id);
    let next = t
        .trace_send(&send(2, 3))
        .expect("child of a sampled parent");
    assert_eq!(next.trace_id, carried.trace_id);
    // The exit ends the consumer span.
    let exit = TraceEvent::new(
        TraceTag::Exit,
        Tracee::pid(2),
        3,
        1,
        Payload::Exit { reason: Term::NIL },
    );
    t.trace(&exit);
    p.force_flush().unwrap();
    let got = spans.get_finished_spans().unwrap();
    let kinds: Vec<SpanKind> = got.iter().map(|s| s.span_kind.clone()).collect();
    assert!(kinds.contains(&SpanKind::Consumer) && kinds.contains(&SpanKind::Producer));
    assert!(got
        .iter()
        .all(|s| s.span_context.trace_id().to_bytes() == carried.trace_id));
}

#[test]
fn without_a_pipeline_every_probe_is_discarded() {
    let t = OtelTracer::disabled();
    assert!(!t.is_enabled());
    for &tag in TraceTag::ALL {
        assert_eq!(t.enabled(tag, Tracee::pid(1)), Decision::Discard, "{tag:?}");
    }
    assert_eq!(t.trace_send(&send(1, 2)), None);
    assert_eq!(t.current_context(Tracee::pid(1)), None);
}

#[test]
fn a_pipeline_asks_only_for_the_tags_its_signals_use() {
    let (p, _) = traces_only(SamplerConfig::AlwaysOn);
    let t = p.tracer();
    let wanted: Vec<TraceTag> = TraceTag::ALL
        .iter()
        .copied()
        .filter(|&tag| t.enabled(tag, Tracee::pid(1)) == Decision::Trace)
        .collect();
    assert_eq!(
        wanted,
        vec![
            TraceTag::Send,
            TraceTag::SendToNonExistingProcess,
            TraceTag::Receive,
            TraceTag::Call,
            TraceTag::ReturnFrom,
            TraceTag::ExceptionFrom,
            TraceTag::Exit,
        ]
    );
}
