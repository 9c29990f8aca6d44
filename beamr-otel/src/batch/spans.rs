//! [`SpanBatcher`]: the SDK's `SpanProcessor` over a [`BatchQueue`]: ended,
//! sampled spans are queued (never waiting) and exported in batches on the
//! queue's thread.

use std::time::Duration;

use opentelemetry::Context;
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::trace::{Span, SpanData, SpanExporter, SpanProcessor};

use super::queue::{BatchOptions, BatchQueue, Sink};
use crate::exec::Exec;

/// Exports batches of spans with `E` on `Exec`.
struct SpanSink<E> {
    exporter: E,
    exec: Exec,
}

impl<E: SpanExporter + 'static> Sink<SpanData> for SpanSink<E> {
    fn export(&mut self, batch: Vec<SpanData>) -> bool {
        self.exec.block_on(self.exporter.export(batch)).is_ok()
    }
    fn shutdown(&mut self) {
        let exporter = &mut self.exporter;
        self.exec.enter(|| {
            let _ = exporter.shutdown();
        });
    }
}

/// A batching span processor that drops (and counts) rather than waits.
#[derive(Debug)]
pub(crate) struct SpanBatcher {
    queue: BatchQueue<SpanData>,
}

impl SpanBatcher {
    /// Starts the `beamr-otel-spans` thread exporting with `exporter`.
    pub(crate) fn start<E: SpanExporter + 'static>(
        exporter: E,
        exec: Exec,
        options: BatchOptions,
    ) -> std::io::Result<SpanBatcher> {
        let queue = BatchQueue::start("spans", options, SpanSink { exporter, exec })?;
        Ok(SpanBatcher { queue })
    }

    /// The queue's shared counters.
    pub(crate) fn counters(&self) -> std::sync::Arc<super::queue::Counters> {
        self.queue.counters()
    }
}

impl SpanProcessor for SpanBatcher {
    fn on_start(&self, _span: &mut Span, _cx: &Context) {}

    fn on_end(&self, span: SpanData) {
        if span.span_context.is_sampled() {
            self.queue.push(span);
        }
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.queue.flush_for_sdk()
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.queue.shutdown_for_sdk(timeout)
    }
}
