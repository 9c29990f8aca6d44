//! [`Pipeline`]: the OpenTelemetry SDK providers, the OTLP exporters and
//! the threads that run them; hands out [`OtelTracer`]s.
//!
//! # Threads
//!
//! | thread | job | blocks on |
//! |---|---|---|
//! | `beamr-otel-spans` | batches and exports spans | the exporter (its timeout) |
//! | `beamr-otel-logs` | batches and exports log records | the exporter (its timeout) |
//! | `OpenTelemetry.Metrics.PeriodicReader` (the SDK's) | collects and exports metrics every interval | the exporter |
//! | `beamr-otel-io` (Tokio, OTLP only) | connections and timers of the gRPC and HTTP clients | network I/O |
//! | `beamr-otel-sampler` (optional, [`Pipeline::sample_every`]) | takes runtime snapshots | the snapshot source |
//!
//! Scheduler threads only touch bounded queues and atomics (see
//! [`crate::tracer`]); a slow or absent collector makes queues fill and
//! items drop ([`Pipeline::stats`], metric `beamr.otel.dropped`).
//!
//! [`Pipeline::force_flush`] and [`Pipeline::shutdown`] wait for the export
//! threads and must not be called from a scheduler or from inside a Tokio
//! runtime.

use std::sync::Arc;
use std::time::Duration;

use opentelemetry::logs::LoggerProvider as _;
use opentelemetry::metrics::MeterProvider as _;
use opentelemetry::trace::TracerProvider as _;
use opentelemetry::{InstrumentationScope, KeyValue};
use opentelemetry_otlp::{Protocol as OtlpProtocol, WithExportConfig};
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::logs::{LogExporter, SdkLoggerProvider};
use opentelemetry_sdk::metrics::exporter::PushMetricExporter;
use opentelemetry_sdk::metrics::{PeriodicReader, SdkMeterProvider};
use opentelemetry_sdk::trace::{Sampler, SdkTracerProvider, SpanExporter};
use opentelemetry_sdk::Resource;

use crate::batch::logs::LogBatcher;
use crate::batch::metrics::OnExec;
use crate::batch::queue::{BatchOptions, Counters};
use crate::batch::spans::SpanBatcher;
use crate::batch::QueueStats;
use crate::clock::Clock;
use crate::config::{Config, Protocol, SamplerConfig};
use crate::exec::Exec;
use crate::keys::{self, semconv};
use crate::lifecycle::Lifecycle;
use crate::metrics::{RuntimeMetrics, RuntimeSnapshot, Sampler as SnapshotSampler};
use crate::procs::ProcTable;
use crate::spans::Spans;
use crate::tracer::{Backend, OtelTracer};

/// Why a pipeline could not start or stop cleanly.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An OTLP exporter could not be built (bad endpoint, ...).
    #[error("building the OTLP {signal} exporter: {source}")]
    Exporter {
        /// `traces`, `logs` or `metrics`.
        signal: &'static str,
        /// Why.
        source: opentelemetry_otlp::ExporterBuildError,
    },
    /// A thread or the I/O runtime could not start.
    #[error("starting an export thread: {0}")]
    Thread(#[from] std::io::Error),
    /// A flush or shutdown failed or timed out.
    #[error("{0}")]
    Sdk(String),
}

/// Items of each batch queue: dropped, exported, failed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ExportStats {
    /// The span queue.
    pub spans: QueueStats,
    /// The log-record queue.
    pub logs: QueueStats,
}

/// The running OpenTelemetry pipeline.
pub struct Pipeline {
    backend: Arc<Backend>,
    tracer_provider: Option<SdkTracerProvider>,
    logger_provider: Option<SdkLoggerProvider>,
    meter_provider: Option<SdkMeterProvider>,
    span_counters: Option<Arc<Counters>>,
    log_counters: Option<Arc<Counters>>,
    /// Dropped last: the providers' final exports run on it.
    runtime: Option<tokio::runtime::Runtime>,
}

impl std::fmt::Debug for Pipeline {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pipeline")
            .field("stats", &self.stats())
            .finish()
    }
}

fn sampler(c: SamplerConfig) -> Sampler {
    let parent = |root| Sampler::ParentBased(Box::new(root));
    match c {
        SamplerConfig::AlwaysOn => Sampler::AlwaysOn,
        SamplerConfig::AlwaysOff => Sampler::AlwaysOff,
        SamplerConfig::TraceIdRatio(r) => Sampler::TraceIdRatioBased(r),
        SamplerConfig::ParentBasedAlwaysOn => parent(Sampler::AlwaysOn),
        SamplerConfig::ParentBasedAlwaysOff => parent(Sampler::AlwaysOff),
        SamplerConfig::ParentBasedTraceIdRatio(r) => parent(Sampler::TraceIdRatioBased(r)),
    }
}

fn resource(c: &Config) -> Resource {
    let mut attrs = vec![
        KeyValue::new(semconv::PROCESS_PID, i64::from(std::process::id())),
        KeyValue::new(semconv::PROCESS_RUNTIME_NAME, "beamr"),
        KeyValue::new(semconv::PROCESS_RUNTIME_VERSION, keys::SCOPE_VERSION),
    ];
    attrs.extend(
        c.resource_attributes
            .iter()
            .map(|(k, v)| KeyValue::new(k.clone(), v.clone())),
    );
    Resource::builder_empty()
        .with_service_name(c.service_name.clone())
        .with_attributes(attrs)
        .build()
}

fn scope() -> InstrumentationScope {
    InstrumentationScope::builder(keys::SCOPE)
        .with_version(keys::SCOPE_VERSION)
        .build()
}

/// The signals' flush or shutdown results (`None`: the signal is off) as
/// one: every failure, named by its signal.
fn joined(results: [(&str, Option<OTelSdkResult>); 3]) -> Result<(), Error> {
    let errors: Vec<String> = results
        .into_iter()
        .filter_map(|(signal, r)| Some(format!("{signal}: {}", r?.err()?)))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(Error::Sdk(errors.join("; ")))
    }
}

/// `builder` with `c`'s protocol, endpoint (for HTTP, the base URL with
/// `path` appended) and timeout; what `c` leaves unset, opentelemetry-otlp
/// reads from its variables.
fn export_config<B: WithExportConfig>(builder: B, c: &Config, path: &str) -> B {
    let http = || {
        c.endpoint
            .as_ref()
            .map(|e| format!("{}{path}", e.trim_end_matches('/')))
    };
    let (protocol, endpoint) = match c.protocol {
        Protocol::Grpc => (OtlpProtocol::Grpc, c.endpoint.clone()),
        Protocol::HttpProtobuf => (OtlpProtocol::HttpBinary, http()),
        Protocol::HttpJson => (OtlpProtocol::HttpJson, http()),
    };
    let mut b = builder.with_protocol(protocol);
    if let Some(e) = endpoint {
        b = b.with_endpoint(e);
    }
    if let Some(t) = c.timeout {
        b = b.with_timeout(t);
    }
    b
}

/// Builds the OTLP exporter `$ty` for `$config` over its protocol's
/// transport (see [`export_config`]).
macro_rules! otlp_exporter {
    ($ty:ty, $signal:literal, $path:literal, $config:expr) => {{
        let c: &Config = $config;
        let result = match c.protocol {
            Protocol::Grpc => export_config(<$ty>::builder().with_tonic(), c, $path).build(),
            Protocol::HttpProtobuf | Protocol::HttpJson => {
                export_config(<$ty>::builder().with_http(), c, $path).build()
            }
        };
        result.map_err(|source| Error::Exporter {
            signal: $signal,
            source,
        })
    }};
}

impl Pipeline {
    /// Starts a pipeline exporting over OTLP as `config` says.
    pub fn start(config: Config) -> Result<Pipeline, Error> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("beamr-otel-io")
            .enable_all()
            .build()?;
        let exec = Exec::Tokio(runtime.handle().clone());
        let (spans, logs, metrics) = exec.enter(|| {
            let s = config
                .signals
                .traces
                .then(|| {
                    otlp_exporter!(
                        opentelemetry_otlp::SpanExporter,
                        "traces",
                        "/v1/traces",
                        &config
                    )
                })
                .transpose()?;
            let l = config
                .signals
                .logs
                .then(|| {
                    otlp_exporter!(opentelemetry_otlp::LogExporter, "logs", "/v1/logs", &config)
                })
                .transpose()?;
            let m = config
                .signals
                .metrics
                .then(|| {
                    otlp_exporter!(
                        opentelemetry_otlp::MetricExporter,
                        "metrics",
                        "/v1/metrics",
                        &config
                    )
                })
                .transpose()?;
            Ok::<_, Error>((s, l, m))
        })?;
        Pipeline::assemble(&config, exec, spans, logs, metrics, Some(runtime))
    }

    /// Starts a pipeline exporting with the given exporters (any of them
    /// `None` turns that signal off), which need no Tokio runtime.
    pub fn with_exporters<S, L, M>(
        config: &Config,
        spans: Option<S>,
        logs: Option<L>,
        metrics: Option<M>,
    ) -> Result<Pipeline, Error>
    where
        S: SpanExporter + 'static,
        L: LogExporter + 'static,
        M: PushMetricExporter,
    {
        Pipeline::assemble(config, Exec::Blocking, spans, logs, metrics, None)
    }

    fn assemble<S, L, M>(
        config: &Config,
        exec: Exec,
        spans: Option<S>,
        logs: Option<L>,
        metrics: Option<M>,
        runtime: Option<tokio::runtime::Runtime>,
    ) -> Result<Pipeline, Error>
    where
        S: SpanExporter + 'static,
        L: LogExporter + 'static,
        M: PushMetricExporter,
    {
        let res = resource(config);
        let options = BatchOptions {
            capacity: config.queue_capacity,
            max_batch: config.max_batch,
            delay: config.batch_delay,
        };
        let mut span_counters = None;
        let tracer_provider = match spans {
            Some(mut e) => {
                e.set_resource(&res);
                let batcher = SpanBatcher::start(e, exec.clone(), options)?;
                span_counters = Some(batcher.counters());
                Some(
                    SdkTracerProvider::builder()
                        .with_span_processor(batcher)
                        .with_sampler(sampler(config.sampler))
                        .with_resource(res.clone())
                        .build(),
                )
            }
            None => None,
        };
        let mut log_counters = None;
        let logger_provider = match logs {
            Some(mut e) => {
                e.set_resource(&res);
                let batcher = LogBatcher::start(e, exec.clone(), options)?;
                log_counters = Some(batcher.counters());
                Some(
                    SdkLoggerProvider::builder()
                        .with_log_processor(batcher)
                        .with_resource(res.clone())
                        .build(),
                )
            }
            None => None,
        };
        let meter_provider = metrics.map(|e| {
            let reader = PeriodicReader::builder(OnExec {
                inner: e,
                exec: exec.clone(),
            })
            .with_interval(config.metric_interval)
            .build();
            SdkMeterProvider::builder()
                .with_reader(reader)
                .with_resource(res.clone())
                .build()
        });
        let runtime_metrics = meter_provider.as_ref().map(|p| {
            let m = RuntimeMetrics::new(&p.meter_with_scope(scope()));
            if let Some(c) = &span_counters {
                m.watch_queue("spans", Arc::clone(c));
            }
            if let Some(c) = &log_counters {
                m.watch_queue("logs", Arc::clone(c));
            }
            Arc::new(m)
        });
        let backend = Arc::new(Backend {
            logs: logger_provider
                .as_ref()
                .map(|p| Lifecycle::new(p.logger_with_scope(scope()))),
            spans: tracer_provider
                .as_ref()
                .map(|p| Spans::new(p.tracer_with_scope(scope()))),
            metrics: runtime_metrics,
            procs: ProcTable::default(),
            clock: Clock::default(),
        });
        Ok(Pipeline {
            backend,
            tracer_provider,
            logger_provider,
            meter_provider,
            span_counters,
            log_counters,
            runtime,
        })
    }

    /// A tracer feeding this pipeline.
    pub fn tracer(&self) -> OtelTracer {
        OtelTracer::new(Arc::clone(&self.backend))
    }

    /// The runtime metrics, when metrics are on.
    pub fn metrics(&self) -> Option<&RuntimeMetrics> {
        self.backend.metrics.as_deref()
    }

    /// Records a snapshot of the runtime (see [`RuntimeMetrics::record_snapshot`]).
    pub fn record_snapshot(&self, snapshot: &RuntimeSnapshot) {
        if let Some(m) = self.metrics() {
            m.record_snapshot(snapshot);
        }
    }

    /// Starts a thread that records `source()` every `interval`, until the
    /// returned sampler is dropped. `None` when metrics are off.
    pub fn sample_every(
        &self,
        interval: Duration,
        source: impl Fn() -> RuntimeSnapshot + Send + 'static,
    ) -> Result<Option<SnapshotSampler>, Error> {
        match &self.backend.metrics {
            Some(m) => Ok(Some(SnapshotSampler::start(
                Arc::clone(m),
                interval,
                source,
            )?)),
            None => Ok(None),
        }
    }

    /// What the batch queues dropped, exported and lost so far.
    pub fn stats(&self) -> ExportStats {
        ExportStats {
            spans: self
                .span_counters
                .as_ref()
                .map(|c| c.stats())
                .unwrap_or_default(),
            logs: self
                .log_counters
                .as_ref()
                .map(|c| c.stats())
                .unwrap_or_default(),
        }
    }

    /// Exports everything produced so far, metrics included; waits.
    pub fn force_flush(&self) -> Result<(), Error> {
        joined([
            (
                "traces",
                self.tracer_provider.as_ref().map(|p| p.force_flush()),
            ),
            (
                "logs",
                self.logger_provider.as_ref().map(|p| p.force_flush()),
            ),
            (
                "metrics",
                self.meter_provider.as_ref().map(|p| p.force_flush()),
            ),
        ])
    }

    /// Exports what is left and stops every thread; waits. Tracers handed
    /// out earlier keep working but export nothing more.
    pub fn shutdown(mut self) -> Result<(), Error> {
        self.stop()
    }

    fn stop(&mut self) -> Result<(), Error> {
        let result = joined([
            ("traces", self.tracer_provider.take().map(|p| p.shutdown())),
            ("logs", self.logger_provider.take().map(|p| p.shutdown())),
            ("metrics", self.meter_provider.take().map(|p| p.shutdown())),
        ]);
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_timeout(Duration::from_secs(1));
        }
        result
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        let _ = self.stop();
    }
}
