//! [`OnExec`]: a metric exporter that drives another on the pipeline's
//! [`Exec`], so the SDK's periodic reader thread (which polls exports with
//! a plain executor) can use the Tokio-based OTLP exporters.

use std::time::Duration;

use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::metrics::data::ResourceMetrics;
use opentelemetry_sdk::metrics::exporter::PushMetricExporter;
use opentelemetry_sdk::metrics::Temporality;

use crate::exec::Exec;

/// `E`, with every export driven to completion on `exec`.
pub(crate) struct OnExec<E> {
    pub(crate) inner: E,
    pub(crate) exec: Exec,
}

impl<E: PushMetricExporter> PushMetricExporter for OnExec<E> {
    fn export(
        &self,
        metrics: &ResourceMetrics,
    ) -> impl std::future::Future<Output = OTelSdkResult> + Send {
        std::future::ready(self.exec.block_on(self.inner.export(metrics)))
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.exec.enter(|| self.inner.force_flush())
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.exec
            .enter(|| self.inner.shutdown_with_timeout(timeout))
    }

    fn temporality(&self) -> Temporality {
        self.inner.temporality()
    }
}
