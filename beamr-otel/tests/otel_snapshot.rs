//! The snapshot hook: a sampler thread takes the runtime's snapshot at an
//! interval, and its metrics reach the exporter without per-pid attributes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use beamr_otel::{Config, Pipeline, RuntimeSnapshot, Signals};
use opentelemetry_sdk::logs::InMemoryLogExporter;
use opentelemetry_sdk::metrics::InMemoryMetricExporter;
use opentelemetry_sdk::trace::InMemorySpanExporter;

#[test]
fn the_sampler_feeds_snapshots_until_dropped() {
    let exporter = InMemoryMetricExporter::default();
    let config = Config {
        signals: Signals {
            logs: false,
            traces: false,
            metrics: true,
        },
        metric_interval: Duration::from_secs(3600),
        ..Config::default()
    };
    let p = Pipeline::with_exporters(
        &config,
        None::<InMemorySpanExporter>,
        None::<InMemoryLogExporter>,
        Some(exporter.clone()),
    )
    .unwrap();
    let calls = Arc::new(AtomicU64::new(0));
    let c = Arc::clone(&calls);
    let sampler = p
        .sample_every(Duration::from_millis(5), move || {
            let n = c.fetch_add(1, Ordering::Relaxed) + 1;
            RuntimeSnapshot {
                processes: 7,
                run_queue_lengths: vec![0, 1, 2, 3],
                reductions: n * 100,
                heap_bytes: 1 << 20,
                message_queue_lengths: vec![1, 2],
            }
        })
        .unwrap()
        .expect("metrics are on");
    // Until the sampler has sampled twice (5 ms apart on an idle machine):
    // the deadline only ends a sampler that stopped sampling.
    let deadline = Instant::now() + Duration::from_secs(60);
    while calls.load(Ordering::Relaxed) < 2 {
        assert!(
            Instant::now() < deadline,
            "sampled {} times",
            calls.load(Ordering::Relaxed)
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    drop(sampler);
    let taken = calls.load(Ordering::Relaxed);
    assert!(taken >= 2, "sampled {taken} times");
    // Ten intervals in which a sampler still running would sample again.
    std::thread::sleep(Duration::from_millis(50));
    assert_eq!(calls.load(Ordering::Relaxed), taken, "stopped when dropped");
    p.force_flush().unwrap();
    let exported = exporter.get_finished_metrics().unwrap();
    let names: Vec<String> = exported
        .iter()
        .flat_map(|rm| rm.scope_metrics())
        .flat_map(|sm| sm.metrics())
        .map(|m| m.name().to_string())
        .collect();
    for want in [
        "beamr.process.count",
        "beamr.scheduler.run_queue.length",
        "beamr.reductions",
        "beamr.memory.heap",
        "beamr.process.message_queue.length",
    ] {
        assert!(
            names.iter().any(|n| n == want),
            "{want} missing from {names:?}"
        );
    }
}
