//! [`Config`]: what the pipeline exports, where, and how it samples, read
//! from the standard `OTEL_*` variables or set in code.
//!
//! [`Config::from_env`] reads the process environment; [`Config::from_lookup`]
//! reads any `name -> value` function, so tests never touch the environment.
//! Variables read here:
//!
//! | variable | default | field |
//! |---|---|---|
//! | `OTEL_SERVICE_NAME` | `beamr` | [`Config::service_name`] |
//! | `OTEL_RESOURCE_ATTRIBUTES` | none | [`Config::resource_attributes`] |
//! | `OTEL_EXPORTER_OTLP_PROTOCOL` | `grpc` | [`Config::protocol`] |
//! | `OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG` | `parentbased_always_on` | [`Config::sampler`] |
//! | `OTEL_METRIC_EXPORT_INTERVAL` | 60000 ms | [`Config::metric_interval`] |
//! | `OTEL_BSP_MAX_QUEUE_SIZE`, `OTEL_BLRP_MAX_QUEUE_SIZE` | 2048 | [`Config::queue_capacity`] |
//! | `OTEL_BSP_MAX_EXPORT_BATCH_SIZE` | 512 | [`Config::max_batch`] |
//! | `OTEL_BSP_SCHEDULE_DELAY` | 1000 ms | [`Config::batch_delay`] |
//!
//! Endpoints, headers, timeouts and compression
//! (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_EXPORTER_OTLP_{TRACES,LOGS,METRICS}_ENDPOINT`,
//! `..._HEADERS`, `..._TIMEOUT`, `..._COMPRESSION`) are read by
//! `opentelemetry-otlp` itself when [`Config::endpoint`] is `None`; a
//! `Some` endpoint overrides them (for HTTP it is the base URL, to which
//! `/v1/traces`, `/v1/logs` and `/v1/metrics` are appended, as for
//! `OTEL_EXPORTER_OTLP_ENDPOINT`).

use std::time::Duration;

/// The OTLP wire protocol (`OTEL_EXPORTER_OTLP_PROTOCOL`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `grpc`: OTLP over gRPC (tonic).
    Grpc,
    /// `http/protobuf`: OTLP over HTTP, protobuf bodies.
    HttpProtobuf,
    /// `http/json`: OTLP over HTTP, JSON bodies.
    HttpJson,
}

impl Protocol {
    /// The protocol named by a value of `OTEL_EXPORTER_OTLP_PROTOCOL`.
    pub fn parse(s: &str) -> Option<Protocol> {
        match s.trim() {
            "grpc" => Some(Protocol::Grpc),
            "http/protobuf" => Some(Protocol::HttpProtobuf),
            "http/json" => Some(Protocol::HttpJson),
            _ => None,
        }
    }

    /// The value of `OTEL_EXPORTER_OTLP_PROTOCOL` that names this protocol.
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Grpc => "grpc",
            Protocol::HttpProtobuf => "http/protobuf",
            Protocol::HttpJson => "http/json",
        }
    }
}

/// How root spans are sampled (`OTEL_TRACES_SAMPLER`, `_ARG`). Spans with a
/// parent follow their parent's decision under the `ParentBased*` samplers.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum SamplerConfig {
    /// `always_on`.
    AlwaysOn,
    /// `always_off`.
    AlwaysOff,
    /// `traceidratio` with the ratio in `0.0..=1.0`.
    TraceIdRatio(f64),
    /// `parentbased_always_on` (the default).
    ParentBasedAlwaysOn,
    /// `parentbased_always_off`.
    ParentBasedAlwaysOff,
    /// `parentbased_traceidratio` with the ratio for roots.
    ParentBasedTraceIdRatio(f64),
}

impl SamplerConfig {
    /// The sampler named by `OTEL_TRACES_SAMPLER` with `OTEL_TRACES_SAMPLER_ARG`
    /// (a ratio; 1.0 when absent or malformed, as the specification says).
    pub fn parse(name: &str, arg: Option<&str>) -> Option<SamplerConfig> {
        let ratio = arg
            .and_then(|a| a.trim().parse::<f64>().ok())
            .filter(|r| (0.0..=1.0).contains(r))
            .unwrap_or(1.0);
        Some(match name.trim() {
            "always_on" => SamplerConfig::AlwaysOn,
            "always_off" => SamplerConfig::AlwaysOff,
            "traceidratio" => SamplerConfig::TraceIdRatio(ratio),
            "parentbased_always_on" => SamplerConfig::ParentBasedAlwaysOn,
            "parentbased_always_off" => SamplerConfig::ParentBasedAlwaysOff,
            "parentbased_traceidratio" => SamplerConfig::ParentBasedTraceIdRatio(ratio),
            _ => return None,
        })
    }
}

/// Which signals the pipeline produces.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Signals {
    /// Process lifecycle log records.
    pub logs: bool,
    /// Call and message spans.
    pub traces: bool,
    /// Runtime metrics.
    pub metrics: bool,
}

impl Signals {
    /// Every signal.
    pub const ALL: Signals = Signals {
        logs: true,
        traces: true,
        metrics: true,
    };
}

/// Everything the pipeline needs to start.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// `service.name` of the resource.
    pub service_name: String,
    /// Further resource attributes (`OTEL_RESOURCE_ATTRIBUTES`).
    pub resource_attributes: Vec<(String, String)>,
    /// The wire protocol.
    pub protocol: Protocol,
    /// The collector's base URL; `None` lets `opentelemetry-otlp` read the
    /// `OTEL_EXPORTER_OTLP_*ENDPOINT` variables (or use its default).
    pub endpoint: Option<String>,
    /// Per-export timeout; `None` lets `opentelemetry-otlp` read
    /// `OTEL_EXPORTER_OTLP_*TIMEOUT`.
    pub timeout: Option<Duration>,
    /// How root spans are sampled.
    pub sampler: SamplerConfig,
    /// Which signals to produce.
    pub signals: Signals,
    /// How often metrics are collected and exported.
    pub metric_interval: Duration,
    /// Spans or log records waiting for export, per signal, before new ones
    /// are dropped (and counted).
    pub queue_capacity: usize,
    /// The most spans or log records in one export request.
    pub max_batch: usize,
    /// The longest a span or log record waits before its batch is exported.
    pub batch_delay: Duration,
}

impl Default for Config {
    /// The defaults of the table in the module documentation.
    fn default() -> Config {
        Config {
            service_name: "beamr".to_string(),
            resource_attributes: Vec::new(),
            protocol: Protocol::Grpc,
            endpoint: None,
            timeout: None,
            sampler: SamplerConfig::ParentBasedAlwaysOn,
            signals: Signals::ALL,
            metric_interval: Duration::from_secs(60),
            queue_capacity: 2048,
            max_batch: 512,
            batch_delay: Duration::from_secs(1),
        }
    }
}

impl Config {
    /// The configuration the process environment describes.
    pub fn from_env() -> Config {
        Config::from_lookup(|name| std::env::var(name).ok())
    }

    /// The configuration that `lookup` (a variable's name to its value)
    /// describes; malformed values keep their defaults.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Config {
        let mut c = Config::default();
        let get = |name: &str| lookup(name).filter(|v| !v.trim().is_empty());
        let millis = |name: &str| {
            get(name)
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(Duration::from_millis)
        };
        let count = |name: &str| {
            get(name)
                .and_then(|v| v.trim().parse::<usize>().ok())
                .filter(|&n| n > 0)
        };
        if let Some(name) = get("OTEL_SERVICE_NAME") {
            c.service_name = name.trim().to_string();
        }
        if let Some(attrs) = get("OTEL_RESOURCE_ATTRIBUTES") {
            c.resource_attributes = parse_resource_attributes(&attrs);
        }
        if let Some(p) = get("OTEL_EXPORTER_OTLP_PROTOCOL").and_then(|p| Protocol::parse(&p)) {
            c.protocol = p;
        }
        if let Some(s) = get("OTEL_TRACES_SAMPLER") {
            let arg = get("OTEL_TRACES_SAMPLER_ARG");
            if let Some(s) = SamplerConfig::parse(&s, arg.as_deref()) {
                c.sampler = s;
            }
        }
        if let Some(d) = millis("OTEL_METRIC_EXPORT_INTERVAL").filter(|d| !d.is_zero()) {
            c.metric_interval = d;
        }
        if let Some(n) =
            count("OTEL_BSP_MAX_QUEUE_SIZE").or_else(|| count("OTEL_BLRP_MAX_QUEUE_SIZE"))
        {
            c.queue_capacity = n;
        }
        if let Some(n) = count("OTEL_BSP_MAX_EXPORT_BATCH_SIZE") {
            c.max_batch = n;
        }
        if let Some(d) = millis("OTEL_BSP_SCHEDULE_DELAY").filter(|d| !d.is_zero()) {
            c.batch_delay = d;
        }
        c
    }
}

/// `key1=value1,key2=value2`, with percent-encoded values, as
/// `OTEL_RESOURCE_ATTRIBUTES` holds them; malformed pairs are skipped.
fn parse_resource_attributes(s: &str) -> Vec<(String, String)> {
    s.split(',')
        .filter_map(|pair| {
            let (k, v) = pair.split_once('=')?;
            let k = k.trim();
            (!k.is_empty()).then(|| (k.to_string(), percent_decode(v.trim())))
        })
        .collect()
}

/// Decodes `%XX` escapes; a malformed escape is kept as it is.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn from(vars: &[(&str, &str)]) -> Config {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Config::from_lookup(|k| map.get(k).cloned())
    }

    #[test]
    fn defaults_without_variables() {
        assert_eq!(from(&[]), Config::default());
        assert_eq!(Config::default().protocol, Protocol::Grpc);
    }

    #[test]
    fn reads_the_standard_variables() {
        let c = from(&[
            ("OTEL_SERVICE_NAME", "shop"),
            (
                "OTEL_RESOURCE_ATTRIBUTES",
                "deployment.environment=prod,team=a%20b,bad",
            ),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"),
            ("OTEL_TRACES_SAMPLER", "parentbased_traceidratio"),
            ("OTEL_TRACES_SAMPLER_ARG", "0.25"),
            ("OTEL_METRIC_EXPORT_INTERVAL", "500"),
            ("OTEL_BSP_MAX_QUEUE_SIZE", "10"),
            ("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "5"),
            ("OTEL_BSP_SCHEDULE_DELAY", "20"),
        ]);
        assert_eq!(c.service_name, "shop");
        assert_eq!(
            c.resource_attributes,
            vec![
                ("deployment.environment".into(), "prod".into()),
                ("team".into(), "a b".into())
            ]
        );
        assert_eq!(c.protocol, Protocol::HttpJson);
        assert_eq!(c.sampler, SamplerConfig::ParentBasedTraceIdRatio(0.25));
        assert_eq!(c.metric_interval, Duration::from_millis(500));
        assert_eq!((c.queue_capacity, c.max_batch), (10, 5));
        assert_eq!(c.batch_delay, Duration::from_millis(20));
    }

    #[test]
    fn malformed_values_keep_defaults() {
        let c = from(&[
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "carrier-pigeon"),
            ("OTEL_TRACES_SAMPLER", "sometimes"),
            ("OTEL_METRIC_EXPORT_INTERVAL", "soon"),
            ("OTEL_BSP_MAX_QUEUE_SIZE", "0"),
        ]);
        assert_eq!(c, Config::default());
        assert_eq!(
            SamplerConfig::parse("traceidratio", Some("2.5")),
            Some(SamplerConfig::TraceIdRatio(1.0))
        );
        for p in [Protocol::Grpc, Protocol::HttpProtobuf, Protocol::HttpJson] {
            assert_eq!(Protocol::parse(p.name()), Some(p));
        }
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(percent_decode("a%2Cb"), "a,b");
    }
}
