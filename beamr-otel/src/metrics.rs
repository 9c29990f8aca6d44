//! [`RuntimeMetrics`]: runtime metrics from trace events and from
//! [`RuntimeSnapshot`]s the runtime feeds.
//!
//! | metric | kind | unit | source |
//! |---|---|---|---|
//! | `beamr.process.count` | gauge | `{process}` | snapshot |
//! | `beamr.scheduler.run_queue.length` (`beamr.scheduler.id`) | gauge | `{process}` | snapshot |
//! | `beamr.reductions` | counter | `{reduction}` | snapshot |
//! | `beamr.memory.heap` | gauge | `By` | snapshot |
//! | `beamr.process.message_queue.length` | histogram | `{message}` | snapshot, one point per process |
//! | `beamr.messages.sent`, `beamr.messages.received` | counter | `{message}` | `send`, `'receive'` events |
//! | `beamr.processes.spawned` | counter | `{process}` | `spawn` events |
//! | `beamr.processes.exited` (`process.exit_class`) | counter | `{process}` | `exit` events |
//! | `beamr.gc.count` (`beamr.gc.kind`) | counter | `{collection}` | `gc_*_end` events |
//! | `beamr.gc.duration` (`beamr.gc.kind`) | histogram | `s` | `gc_*_start` to `gc_*_end` |
//! | `beamr.otel.dropped` (`beamr.otel.signal`) | counter | `{item}` | batch queues (full) |
//! | `beamr.otel.export.failed` (`beamr.otel.signal`) | counter | `{item}` | batch queues (failed exports) |
//!
//! No metric has a per-pid attribute: their cardinality is bounded by the
//! scheduler count and small fixed sets.
//!
//! # Threads and what blocks
//!
//! Event counts are relaxed atomic additions on the scheduler thread, read
//! by observable instruments on the SDK's metric reader thread at each
//! collection ([`Config::metric_interval`](crate::Config::metric_interval)).
//! The two histograms are recorded where their value appears (an SDK
//! histogram update: a short lock inside the SDK, no I/O). A snapshot is
//! stored where the reader's callbacks find it; [`Sampler`] takes one at an
//! interval on a thread of its own.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use opentelemetry::metrics::{AsyncInstrument, AsyncInstrumentBuilder, Histogram, Meter};
use opentelemetry::KeyValue;

use crate::batch::queue::Counters;
use crate::batch::QueueStats;
use crate::keys::semconv as k;

/// What the runtime reports about itself at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RuntimeSnapshot {
    /// Processes alive.
    pub processes: u64,
    /// Run-queue length of each scheduler, scheduler 1 first.
    pub run_queue_lengths: Vec<u64>,
    /// Reductions executed since the runtime started (monotonic).
    pub reductions: u64,
    /// Bytes of process heaps (young, old and fragments).
    pub heap_bytes: u64,
    /// The message-queue length of every process (or of a sample of them).
    pub message_queue_lengths: Vec<u64>,
}

/// Counts kept by atomics and by the last snapshot, read at collection.
#[derive(Debug, Default)]
struct Shared {
    sent: AtomicU64,
    received: AtomicU64,
    spawned: AtomicU64,
    exited: [AtomicU64; EXIT_CLASSES.len()],
    gc: [AtomicU64; 2],
    processes: AtomicU64,
    reductions: AtomicU64,
    heap_bytes: AtomicU64,
    run_queues: Mutex<Vec<u64>>,
    queues: Mutex<Vec<(&'static str, Arc<Counters>)>>,
}

const EXIT_CLASSES: [&str; 6] = ["normal", "shutdown", "killed", "error", "exit", "throw"];
const GC_KINDS: [&str; 2] = ["minor", "major"];

fn load(n: &AtomicU64) -> u64 {
    n.load(Ordering::Relaxed)
}

/// `builder` with its description and unit, observing `observe(shared)` at
/// each collection.
fn observed<'a, I>(
    builder: AsyncInstrumentBuilder<'a, I, u64>,
    desc: &'static str,
    unit: &'static str,
    shared: &Arc<Shared>,
    observe: impl Fn(&Shared, &dyn AsyncInstrument<u64>) + Send + Sync + 'static,
) -> AsyncInstrumentBuilder<'a, I, u64> {
    let shared = Arc::clone(shared);
    builder
        .with_description(desc)
        .with_unit(unit)
        .with_callback(move |o| observe(&shared, o))
}

/// The runtime's instruments.
#[derive(Debug)]
pub struct RuntimeMetrics {
    shared: Arc<Shared>,
    gc_duration: Histogram<f64>,
    queue_length: Histogram<u64>,
}

impl RuntimeMetrics {
    /// Registers the instruments of the module's table on `meter`.
    pub(crate) fn new(meter: &Meter) -> RuntimeMetrics {
        type Read = fn(&Shared) -> u64;
        type ReadQueue = fn(QueueStats) -> u64;
        let shared = Arc::new(Shared::default());
        let s = &shared;
        let counters: [(_, _, _, Read); 4] = [
            ("beamr.messages.sent", "Messages sent", "{message}", |s| {
                load(&s.sent)
            }),
            (
                "beamr.messages.received",
                "Messages received",
                "{message}",
                |s| load(&s.received),
            ),
            (
                "beamr.processes.spawned",
                "Processes spawned",
                "{process}",
                |s| load(&s.spawned),
            ),
            (
                "beamr.reductions",
                "Reductions executed",
                "{reduction}",
                |s| load(&s.reductions),
            ),
        ];
        for (name, desc, unit, read) in counters {
            let b = meter.u64_observable_counter(name);
            observed(b, desc, unit, s, move |s, o| o.observe(read(s), &[])).build();
        }
        let gauges: [(_, _, _, Read); 2] = [
            ("beamr.process.count", "Processes alive", "{process}", |s| {
                load(&s.processes)
            }),
            ("beamr.memory.heap", "Process heap memory", "By", |s| {
                load(&s.heap_bytes)
            }),
        ];
        for (name, desc, unit, read) in gauges {
            let b = meter.u64_observable_gauge(name);
            observed(b, desc, unit, s, move |s, o| o.observe(read(s), &[])).build();
        }
        let b = meter.u64_observable_counter("beamr.processes.exited");
        observed(
            b,
            "Processes exited, by exit class",
            "{process}",
            s,
            |s, o| {
                for (n, class) in s.exited.iter().zip(EXIT_CLASSES) {
                    o.observe(load(n), &[KeyValue::new("process.exit_class", class)]);
                }
            },
        )
        .build();
        let b = meter.u64_observable_counter("beamr.gc.count");
        observed(b, "Garbage collections", "{collection}", s, |s, o| {
            for (n, kind) in s.gc.iter().zip(GC_KINDS) {
                o.observe(load(n), &[KeyValue::new(k::GC_KIND, kind)]);
            }
        })
        .build();
        let b = meter.u64_observable_gauge("beamr.scheduler.run_queue.length");
        let desc = "Processes waiting in each scheduler's run queue";
        observed(b, desc, "{process}", s, |s, o| {
            let rq = s.run_queues.lock().unwrap_or_else(|e| e.into_inner());
            for (i, &len) in rq.iter().enumerate() {
                o.observe(len, &[KeyValue::new(k::SCHEDULER_ID, i as i64 + 1)]);
            }
        })
        .build();
        let queue_counters: [(_, _, ReadQueue); 2] = [
            (
                "beamr.otel.dropped",
                "Trace items dropped because the export queue was full",
                |st| st.dropped,
            ),
            (
                "beamr.otel.export.failed",
                "Trace items lost in failed exports",
                |st| st.failed,
            ),
        ];
        for (name, desc, read) in queue_counters {
            let b = meter.u64_observable_counter(name);
            observed(b, desc, "{item}", s, move |s, o| {
                let queues = s.queues.lock().unwrap_or_else(|e| e.into_inner());
                for (signal, c) in queues.iter() {
                    o.observe(read(c.stats()), &[KeyValue::new(k::SIGNAL, *signal)]);
                }
            })
            .build();
        }
        let gc_duration = meter
            .f64_histogram("beamr.gc.duration")
            .with_description("Time spent in garbage collections")
            .with_unit("s")
            .with_boundaries(vec![1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1.0])
            .build();
        let queue_length = meter
            .u64_histogram("beamr.process.message_queue.length")
            .with_description(
                "Message-queue lengths of processes, one point per process per snapshot",
            )
            .with_unit("{message}")
            .with_boundaries(vec![0.0, 1.0, 10.0, 100.0, 1000.0, 10000.0])
            .build();
        RuntimeMetrics {
            shared,
            gc_duration,
            queue_length,
        }
    }

    /// Reports a batch queue's drops and failures as `signal`.
    pub(crate) fn watch_queue(&self, signal: &'static str, counters: Arc<Counters>) {
        self.shared
            .queues
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((signal, counters));
    }

    /// A message was sent.
    pub(crate) fn sent(&self) {
        self.shared.sent.fetch_add(1, Ordering::Relaxed);
    }

    /// A message was received.
    pub(crate) fn received(&self) {
        self.shared.received.fetch_add(1, Ordering::Relaxed);
    }

    /// A process was spawned.
    pub(crate) fn spawned(&self) {
        self.shared.spawned.fetch_add(1, Ordering::Relaxed);
    }

    /// A process exited with `class` (one of [`crate::exit`]'s classes).
    pub(crate) fn exited(&self, class: &str) {
        if let Some(i) = EXIT_CLASSES.iter().position(|c| *c == class) {
            self.shared.exited[i].fetch_add(1, Ordering::Relaxed);
        }
    }

    /// A collection ended after `seconds` (if its start was seen).
    pub(crate) fn gc(&self, major: bool, seconds: Option<f64>) {
        let i = usize::from(major);
        self.shared.gc[i].fetch_add(1, Ordering::Relaxed);
        if let Some(s) = seconds {
            self.gc_duration
                .record(s, &[KeyValue::new(k::GC_KIND, GC_KINDS[i])]);
        }
    }

    /// Records a snapshot: gauges and the reduction count take its values,
    /// and each message-queue length is a histogram point.
    pub fn record_snapshot(&self, snap: &RuntimeSnapshot) {
        let s = &self.shared;
        s.processes.store(snap.processes, Ordering::Relaxed);
        s.reductions.fetch_max(snap.reductions, Ordering::Relaxed);
        s.heap_bytes.store(snap.heap_bytes, Ordering::Relaxed);
        *s.run_queues.lock().unwrap_or_else(|e| e.into_inner()) = snap.run_queue_lengths.clone();
        for &len in &snap.message_queue_lengths {
            self.queue_length.record(len, &[]);
        }
    }
}

/// A thread that takes a [`RuntimeSnapshot`] at an interval and records
/// it; it stops when dropped.
#[derive(Debug)]
pub struct Sampler {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Sampler {
    /// Starts `beamr-otel-sampler`, calling `source` every `interval`.
    pub(crate) fn start(
        metrics: Arc<RuntimeMetrics>,
        interval: Duration,
        source: impl Fn() -> RuntimeSnapshot + Send + 'static,
    ) -> std::io::Result<Sampler> {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("beamr-otel-sampler".into())
            .spawn(move || loop {
                metrics.record_snapshot(&source());
                match stopped.recv_timeout(interval) {
                    Err(mpsc::RecvTimeoutError::Timeout) => continue,
                    _ => return,
                }
            })?;
        Ok(Sampler {
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Sampler {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
