//! [`LogBatcher`]: the SDK's `LogProcessor` over a [`BatchQueue`]: emitted
//! records are copied into the queue (never waiting) and exported in
//! batches on the queue's thread.

use std::time::Duration;

use opentelemetry::InstrumentationScope;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::logs::{LogBatch, LogExporter, LogProcessor, SdkLogRecord};

use super::queue::{BatchOptions, BatchQueue, Sink};
use crate::exec::Exec;

type Item = (SdkLogRecord, InstrumentationScope);

/// Exports batches of log records with `E` on `Exec`.
struct LogSink<E> {
    exporter: E,
    exec: Exec,
}

impl<E: LogExporter + 'static> Sink<Item> for LogSink<E> {
    fn export(&mut self, batch: Vec<Item>) -> bool {
        let refs: Vec<(&SdkLogRecord, &InstrumentationScope)> =
            batch.iter().map(|(r, s)| (r, s)).collect();
        self.exec
            .block_on(self.exporter.export(LogBatch::new(&refs)))
            .is_ok()
    }
    fn shutdown(&mut self) {
        let exporter = &mut self.exporter;
        self.exec.enter(|| {
            let _ = exporter.shutdown();
        });
    }
}

/// A batching log processor that drops (and counts) rather than waits.
#[derive(Debug)]
pub(crate) struct LogBatcher {
    queue: BatchQueue<Item>,
}

impl LogBatcher {
    /// Starts the `beamr-otel-logs` thread exporting with `exporter`.
    pub(crate) fn start<E: LogExporter + 'static>(
        exporter: E,
        exec: Exec,
        options: BatchOptions,
    ) -> std::io::Result<LogBatcher> {
        let queue = BatchQueue::start("logs", options, LogSink { exporter, exec })?;
        Ok(LogBatcher { queue })
    }

    /// The queue's shared counters.
    pub(crate) fn counters(&self) -> std::sync::Arc<super::queue::Counters> {
        self.queue.counters()
    }
}

impl LogProcessor for LogBatcher {
    fn emit(&self, data: &mut SdkLogRecord, instrumentation: &InstrumentationScope) {
        self.queue.push((data.clone(), instrumentation.clone()));
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.queue.flush_for_sdk()
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.queue.shutdown_for_sdk(timeout)
    }
}
