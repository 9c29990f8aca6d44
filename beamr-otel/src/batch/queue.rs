//! [`BatchQueue`]: a bounded queue whose own thread exports in batches.
//!
//! # Threads and what blocks
//!
//! 1. Producers (scheduler threads, through the SDK's span end and log
//!    emit) call [`BatchQueue::push`]: one `try_send` on a bounded channel.
//!    It never waits. When the channel is full, or the worker is gone, the
//!    item is dropped and `dropped` is incremented.
//! 2. The worker thread (`beamr-otel-<signal>`) receives items into a
//!    batch and hands the batch to its [`Sink`] when it holds `max_batch`
//!    items or its oldest item has waited `delay`. The sink blocks this
//!    thread for as long as the export takes (bounded by the exporter's
//!    timeout); meanwhile the channel fills and producers drop.
//! 3. [`BatchQueue::flush`] and [`BatchQueue::shutdown`] send a control
//!    message and wait for the worker's answer, at most a timeout. They may
//!    block and are for the thread that owns the pipeline, never a
//!    scheduler.
//!
//! The counters are relaxed atomics: they are statistics, read with no
//! ordering against the items they count.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use opentelemetry_sdk::error::{OTelSdkError, OTelSdkResult};

/// How long a processor's `force_flush` waits for its queue to drain.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(30);

/// Where a batch goes.
pub(crate) trait Sink<T>: Send + 'static {
    /// Exports `batch`; true on success.
    fn export(&mut self, batch: Vec<T>) -> bool;
    /// Called once, after the last export.
    fn shutdown(&mut self);
}

/// How a queue batches.
#[derive(Copy, Clone, Debug)]
pub(crate) struct BatchOptions {
    /// Items waiting before new ones are dropped.
    pub capacity: usize,
    /// The most items in one export.
    pub max_batch: usize,
    /// The longest an item waits for its batch.
    pub delay: Duration,
}

/// What happened to the items of one queue.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct QueueStats {
    /// Dropped because the queue was full (or shut down).
    pub dropped: u64,
    /// Exported successfully.
    pub exported: u64,
    /// Lost in exports that failed.
    pub failed: u64,
}

#[derive(Debug, Default)]
pub(crate) struct Counters {
    dropped: AtomicU64,
    exported: AtomicU64,
    failed: AtomicU64,
}

impl Counters {
    pub(crate) fn stats(&self) -> QueueStats {
        QueueStats {
            dropped: self.dropped.load(Ordering::Relaxed),
            exported: self.exported.load(Ordering::Relaxed),
            failed: self.failed.load(Ordering::Relaxed),
        }
    }
}

enum Msg<T> {
    Item(T),
    Flush(mpsc::Sender<()>),
    Shutdown(mpsc::Sender<()>),
}

/// A bounded queue drained in batches by its own thread.
#[derive(Debug)]
pub(crate) struct BatchQueue<T> {
    tx: SyncSender<Msg<T>>,
    counters: Arc<Counters>,
    worker: Mutex<Option<JoinHandle<()>>>,
}

impl<T: Send + 'static> BatchQueue<T> {
    /// Starts the worker thread `beamr-otel-<name>` exporting into `sink`.
    pub(crate) fn start(
        name: &str,
        options: BatchOptions,
        sink: impl Sink<T>,
    ) -> std::io::Result<BatchQueue<T>> {
        let (tx, rx) = mpsc::sync_channel(options.capacity.max(1));
        let counters = Arc::new(Counters::default());
        let c = Arc::clone(&counters);
        let worker = std::thread::Builder::new()
            .name(format!("beamr-otel-{name}"))
            .spawn(move || run(rx, options, sink, &c))?;
        Ok(BatchQueue {
            tx,
            counters,
            worker: Mutex::new(Some(worker)),
        })
    }

    /// Queues `item`, or drops and counts it if the queue is full. Never
    /// blocks.
    pub(crate) fn push(&self, item: T) {
        match self.tx.try_send(Msg::Item(item)) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => {
                self.counters.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// The counters so far.
    #[cfg(test)]
    pub(crate) fn stats(&self) -> QueueStats {
        self.counters.stats()
    }

    /// The shared counters (for observable metrics).
    pub(crate) fn counters(&self) -> Arc<Counters> {
        Arc::clone(&self.counters)
    }

    /// Exports everything queued before this call; waits at most `timeout`.
    /// True if the worker answered in time.
    pub(crate) fn flush(&self, timeout: Duration) -> bool {
        self.control(Msg::Flush, timeout)
    }

    /// Exports what is queued, shuts the sink down and stops the worker;
    /// waits at most `timeout`. Later pushes are dropped.
    pub(crate) fn shutdown(&self, timeout: Duration) -> bool {
        let answered = self.control(Msg::Shutdown, timeout);
        if answered {
            let handle = self.worker.lock().unwrap_or_else(|e| e.into_inner()).take();
            if let Some(h) = handle {
                let _ = h.join();
            }
        }
        answered
    }

    /// [`flush`](Self::flush) with the SDK's result: a timeout after
    /// [`FLUSH_TIMEOUT`] is an error, as the SDK's processors report it.
    pub(crate) fn flush_for_sdk(&self) -> OTelSdkResult {
        if self.flush(FLUSH_TIMEOUT) {
            Ok(())
        } else {
            Err(OTelSdkError::Timeout(FLUSH_TIMEOUT))
        }
    }

    /// [`shutdown`](Self::shutdown) with the SDK's result.
    pub(crate) fn shutdown_for_sdk(&self, timeout: Duration) -> OTelSdkResult {
        if self.shutdown(timeout) {
            Ok(())
        } else {
            Err(OTelSdkError::Timeout(timeout))
        }
    }

    fn control(&self, make: fn(mpsc::Sender<()>) -> Msg<T>, timeout: Duration) -> bool {
        let (ack_tx, ack_rx) = mpsc::channel();
        let deadline = Instant::now() + timeout;
        let mut msg = make(ack_tx);
        loop {
            match self.tx.try_send(msg) {
                Ok(()) => break,
                Err(TrySendError::Disconnected(_)) => return false,
                Err(TrySendError::Full(m)) => {
                    if Instant::now() >= deadline {
                        return false;
                    }
                    msg = m;
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
        }
        ack_rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .is_ok()
    }
}

/// The worker thread's loop (step 2 of the module's protocol).
fn run<T: Send + 'static>(
    rx: Receiver<Msg<T>>,
    options: BatchOptions,
    mut sink: impl Sink<T>,
    counters: &Counters,
) {
    let mut batch: Vec<T> = Vec::new();
    let mut deadline: Option<Instant> = None;
    let export = |batch: &mut Vec<T>, sink: &mut dyn Sink<T>| {
        if batch.is_empty() {
            return;
        }
        let items = std::mem::take(batch);
        let n = items.len() as u64;
        if sink.export(items) {
            counters.exported.fetch_add(n, Ordering::Relaxed);
        } else {
            counters.failed.fetch_add(n, Ordering::Relaxed);
        }
    };
    loop {
        let msg = match deadline {
            None => rx.recv().ok(),
            Some(d) => match rx.recv_timeout(d.saturating_duration_since(Instant::now())) {
                Ok(m) => Some(m),
                Err(RecvTimeoutError::Timeout) => {
                    export(&mut batch, &mut sink);
                    deadline = None;
                    continue;
                }
                Err(RecvTimeoutError::Disconnected) => None,
            },
        };
        match msg {
            Some(Msg::Item(item)) => {
                if batch.is_empty() {
                    deadline = Some(Instant::now() + options.delay);
                }
                batch.push(item);
                if batch.len() >= options.max_batch.max(1) {
                    export(&mut batch, &mut sink);
                    deadline = None;
                }
            }
            Some(Msg::Flush(ack)) => {
                export(&mut batch, &mut sink);
                deadline = None;
                let _ = ack.send(());
            }
            Some(Msg::Shutdown(ack)) => {
                export(&mut batch, &mut sink);
                sink.shutdown();
                let _ = ack.send(());
                return;
            }
            None => {
                export(&mut batch, &mut sink);
                sink.shutdown();
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::Receiver as Rx;

    /// How long a test waits for what comes in microseconds on an idle
    /// machine: it only ends a test whose worker never answers.
    const LONG: Duration = Duration::from_secs(60);

    /// A sink that reports batch sizes and can be held up by a gate.
    struct Probe {
        sizes: mpsc::Sender<usize>,
        gate: Option<Rx<()>>,
        ok: bool,
    }

    impl Sink<u32> for Probe {
        fn export(&mut self, batch: Vec<u32>) -> bool {
            if let Some(g) = &self.gate {
                let _ = g.recv_timeout(LONG);
            }
            let _ = self.sizes.send(batch.len());
            self.ok
        }
        fn shutdown(&mut self) {}
    }

    fn options(capacity: usize, max_batch: usize, delay_ms: u64) -> BatchOptions {
        BatchOptions {
            capacity,
            max_batch,
            delay: Duration::from_millis(delay_ms),
        }
    }

    #[test]
    fn batches_by_size_and_by_delay() {
        // By size: with a delay no test waits out, the fourth of six items
        // fills a batch, and the other two wait (until the shutdown).
        let (tx, rx) = mpsc::channel();
        let q = BatchQueue::start(
            "test",
            options(100, 4, 3_600_000),
            Probe {
                sizes: tx,
                gate: None,
                ok: true,
            },
        )
        .unwrap();
        for i in 0..6 {
            q.push(i);
        }
        assert_eq!(rx.recv_timeout(LONG).unwrap(), 4);
        assert!(q.shutdown(LONG));
        assert_eq!(rx.try_recv(), Ok(2), "the shutdown exports the rest");
        assert_eq!(
            q.stats(),
            QueueStats {
                dropped: 0,
                exported: 6,
                failed: 0
            }
        );
        // By delay: two items short of a batch go when the delay passes,
        // without a flush. (A loaded machine may hold the pushes more than
        // the delay apart: they then go one by one, both still unflushed.)
        let (tx, rx) = mpsc::channel();
        let q = BatchQueue::start(
            "test",
            options(100, 4, 50),
            Probe {
                sizes: tx,
                gate: None,
                ok: true,
            },
        )
        .unwrap();
        q.push(0);
        q.push(1);
        let mut sent = 0;
        while sent < 2 {
            sent += rx.recv_timeout(LONG).unwrap();
        }
        assert_eq!(sent, 2);
        assert!(q.shutdown(LONG));
        assert_eq!(q.stats().exported, 2);
    }

    #[test]
    fn a_stuck_exporter_makes_pushes_drop_not_wait() {
        let (tx, rx) = mpsc::channel();
        let (gate_tx, gate_rx) = mpsc::channel();
        let q = BatchQueue::start(
            "stuck",
            options(2, 1, 1),
            Probe {
                sizes: tx,
                gate: Some(gate_rx),
                ok: false,
            },
        )
        .unwrap();
        // The worker holds the first item at the gate (for up to LONG):
        // pushes that waited for it would take that long, pushes that
        // drop take microseconds, so half of LONG tells them apart
        // however loaded the machine.
        let t = Instant::now();
        for i in 0..100 {
            q.push(i);
        }
        assert!(t.elapsed() < LONG / 2, "push waited");
        let dropped = q.stats().dropped;
        assert!(dropped >= 97, "dropped {dropped}");
        for _ in 0..4 {
            let _ = gate_tx.send(());
        }
        drop(gate_tx);
        assert!(q.shutdown(LONG));
        let s = q.stats();
        assert_eq!(s.dropped + s.failed, 100);
        assert_eq!(s.exported, 0);
        while rx.try_recv().is_ok() {}
        q.push(1);
        assert_eq!(
            q.stats().dropped,
            dropped + 1,
            "a push after shutdown is dropped"
        );
    }
}
