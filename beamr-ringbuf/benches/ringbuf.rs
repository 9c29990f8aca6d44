//! Criterion benchmarks: writer cost per 4-word event on one thread and on
//! every core, the cost of a full trace event through `RingTracer`,
//! `RingTracer::enabled` on a paused recorder against a baseline, and reader
//! throughput.
//!
//! `paused_probe` measures only the tracer's answer: the runtime has no probe
//! sites yet, so the planned cost of a probe that nothing traces (its
//! flag-word check) is not measured here.

use std::hint::black_box;
use std::time::{Duration, Instant};

use beamr_core::atom::Atom;
use beamr_core::heap::Heap;
use beamr_core::term::Term;
use beamr_ringbuf::{Callbacks, Cursor, Event, Options, Recorder, RingTracer, StringTable};
use beamr_trace::{Payload, TraceEvent, TraceTag, Tracee, Tracer};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

/// Files go to `$BEAMR_TRACE_DIR`, else `/dev/shm` where there is one (no
/// disk writeback, as a production recorder would be configured), else the
/// temporary directory.
fn tmp(name: &str) -> std::path::PathBuf {
    let shm = std::path::Path::new("/dev/shm");
    std::env::var_os("BEAMR_TRACE_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            if shm.is_dir() {
                shm.to_path_buf()
            } else {
                std::env::temp_dir()
            }
        })
        .join(format!("beamr-bench-{}-{name}.trace", std::process::id()))
}

fn writer(c: &mut Criterion) {
    let mut g = c.benchmark_group("write_4_words");
    g.throughput(Throughput::Elements(1));
    let rec = Recorder::create(Options::new(1).path(tmp("w1")).ring_words(1 << 16)).unwrap();
    let mut w = rec.writer(0).unwrap();
    let mut i = 0u64;
    g.bench_function("1_thread", |b| {
        b.iter(|| {
            i += 1;
            black_box(w.write(1, i, &[i, i ^ 0x55]))
        })
    });
    drop(w);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let recs = Recorder::create(Options::new(cores).path(tmp("wn")).ring_words(1 << 16)).unwrap();
    g.bench_function(format!("{cores}_threads_per_thread"), |b| {
        b.iter_custom(|iters| {
            let start = Instant::now();
            std::thread::scope(|s| {
                for r in 0..cores {
                    let mut w = recs.writer(r).unwrap();
                    s.spawn(move || {
                        for i in 0..iters {
                            black_box(w.write(1, i, &[i, i ^ 0x55]));
                        }
                    });
                }
            });
            start.elapsed()
        })
    });
    g.finish();
}

fn tracer(c: &mut Criterion) {
    let mut g = c.benchmark_group("ring_tracer");
    let t = RingTracer::new(Recorder::create(Options::new(2).path(tmp("t"))).unwrap());
    let mut heap = Heap::new();
    let msg = heap.tuple(&[Term::atom(Atom::OK), Term::pid(3), Term::small_unchecked(1)]);
    let ev = TraceEvent::new(
        TraceTag::Send,
        Tracee::pid(1),
        0,
        1,
        Payload::Message {
            message: msg,
            peer: Some(Term::pid(2)),
            match_spec_result: None,
        },
    );
    g.bench_function("send_event", |b| {
        b.iter(|| {
            if t.enabled(TraceTag::Send, Tracee::pid(1)) == beamr_trace::Decision::Trace {
                t.trace(black_box(&ev));
            }
        })
    });
    t.recorder().pause();
    g.bench_function("paused_probe", |b| {
        b.iter(|| black_box(t.enabled(black_box(TraceTag::Send), Tracee::pid(1))))
    });
    g.bench_function("baseline_no_probe", |b| {
        b.iter(|| black_box(TraceTag::Send))
    });
    g.finish();
}

struct Sink(u64);
impl Callbacks for Sink {
    fn event(&mut self, e: &Event<'_>, _: &StringTable) {
        self.0 = self.0.wrapping_add(e.payload[0]);
    }
    fn lost(&mut self, _: usize, n: u64) {
        self.0 += n;
    }
}

fn reader(c: &mut Criterion) {
    let mut g = c.benchmark_group("reader");
    let path = tmp("r");
    let words = 1 << 20;
    let rec = Recorder::create(Options::new(1).path(&path).ring_words(words)).unwrap();
    let events = (words / 4) as u64;
    {
        let mut w = rec.writer(0).unwrap();
        for i in 0..events {
            w.write(1, i, &[i, i]);
        }
    }
    g.throughput(Throughput::Elements(events));
    g.measurement_time(Duration::from_secs(5));
    g.bench_function("poll_4_word_events", |b| {
        b.iter(|| {
            let mut cursor = Cursor::open(&path).unwrap();
            let mut sink = Sink(0);
            assert_eq!(cursor.poll(&mut sink), events as usize);
            black_box(sink.0)
        })
    });
    g.finish();
}

criterion_group!(benches, writer, tracer, reader);
criterion_main!(benches);
