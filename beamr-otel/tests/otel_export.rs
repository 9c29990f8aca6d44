//! End to end: the scenario's trace events go through an `OtelTracer` and a
//! `Pipeline` exporting over OTLP to a real receiver on 127.0.0.1, once per
//! protocol; logs, spans and metrics must arrive with the right attributes.
//! Configuration is set in code (no environment variable is read).

mod support;

use std::time::{Duration, Instant};

use beamr_otel::{Config, Pipeline, Protocol};
use beamr_trace::{Payload, TraceEvent, TraceTag, Tracee, Tracer};
use support::{receiver::Receiver, scenario};

fn config(protocol: Protocol, endpoint: String, service: &str) -> Config {
    Config {
        service_name: service.to_string(),
        protocol,
        endpoint: Some(endpoint),
        // An export to the loopback receiver takes milliseconds; one that
        // times out fails the test (stats.failed), so allow a loaded
        // machine plenty.
        timeout: Some(Duration::from_secs(30)),
        metric_interval: Duration::from_secs(3600),
        batch_delay: Duration::from_millis(50),
        ..Config::default()
    }
}

fn round_trip(protocol: Protocol, receiver: Receiver) {
    let service = format!("beamr-test-{}", protocol.name().replace('/', "-"));
    let pipeline = Pipeline::start(config(protocol, receiver.endpoint(), &service)).unwrap();
    let tracer = pipeline.tracer();
    scenario::run(&tracer);
    pipeline.record_snapshot(&scenario::snapshot());
    pipeline.force_flush().unwrap();
    let got = receiver.wait_until(Duration::from_secs(20), scenario::complete);
    scenario::check(&got, &service);
    let stats = pipeline.stats();
    assert_eq!((stats.spans.dropped, stats.spans.failed), (0, 0));
    assert_eq!((stats.logs.dropped, stats.logs.failed), (0, 0));
    pipeline.shutdown().unwrap();
    let requests = receiver.requests.lock().unwrap().clone();
    match protocol {
        Protocol::Grpc => assert!(requests.iter().all(|r| r.starts_with("grpc"))),
        Protocol::HttpProtobuf => assert!(
            requests
                .iter()
                .all(|r| r.ends_with("application/x-protobuf")),
            "{requests:?}"
        ),
        Protocol::HttpJson => assert!(
            requests.iter().all(|r| r.ends_with("application/json")),
            "{requests:?}"
        ),
    }
}

#[test]
fn grpc_delivers_logs_spans_and_metrics() {
    round_trip(Protocol::Grpc, Receiver::grpc());
}

#[test]
fn http_protobuf_delivers_logs_spans_and_metrics() {
    round_trip(Protocol::HttpProtobuf, Receiver::http());
}

#[test]
fn http_json_delivers_logs_spans_and_metrics() {
    round_trip(Protocol::HttpJson, Receiver::http());
}

#[test]
fn an_absent_collector_never_blocks_and_drops_are_counted() {
    // A port that was free a moment ago: nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    for protocol in [Protocol::Grpc, Protocol::HttpProtobuf] {
        let mut c = config(protocol, format!("http://127.0.0.1:{port}"), "absent");
        c.queue_capacity = 8;
        c.max_batch = 4;
        c.timeout = Some(Duration::from_millis(300));
        let pipeline = Pipeline::start(c).unwrap();
        let tracer = pipeline.tracer();
        let t = Instant::now();
        for i in 0..2_000u64 {
            let ev = TraceEvent::new(
                TraceTag::Exit,
                Tracee::pid(100 + i),
                i,
                1,
                Payload::Exit {
                    reason: beamr_core::term::Term::NIL,
                },
            );
            tracer.trace(&ev);
            let _ = tracer.trace_send(&TraceEvent::new(
                TraceTag::Send,
                Tracee::pid(100 + i),
                i,
                1,
                Payload::Message {
                    message: beamr_core::term::Term::NIL,
                    peer: Some(beamr_core::term::Term::pid(1)),
                    match_spec_result: None,
                },
            ));
        }
        // 4,000 pushes that never block take milliseconds; pushes that
        // waited for the absent collector would take minutes (a 300 ms
        // timeout for each batch of 4), so 30 s tells them apart however
        // loaded the machine.
        let elapsed = t.elapsed();
        assert!(
            elapsed < Duration::from_secs(30),
            "{protocol:?}: tracing took {elapsed:?}"
        );
        let stats = pipeline.stats();
        assert!(stats.logs.dropped > 1_000, "{protocol:?}: {stats:?}");
        assert!(stats.spans.dropped > 1_000, "{protocol:?}: {stats:?}");
        drop(pipeline);
    }
}
