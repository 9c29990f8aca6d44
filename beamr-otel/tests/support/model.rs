//! What a collector received, as plain data: log records, spans and metric
//! points with their attributes as strings.

use std::collections::HashMap;

use opentelemetry_proto::tonic::collector::logs::v1::ExportLogsServiceRequest;
use opentelemetry_proto::tonic::collector::metrics::v1::ExportMetricsServiceRequest;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::{any_value, KeyValue};
use opentelemetry_proto::tonic::metrics::v1::{metric, number_data_point};

pub type Attrs = HashMap<String, String>;

#[derive(Clone, Debug)]
pub struct Log {
    pub event_name: String,
    pub severity_number: i32,
    pub severity_text: String,
    pub scope: (String, String),
    pub attrs: Attrs,
    pub resource: Attrs,
    pub trace_id: Vec<u8>,
    pub time_unix_nano: u64,
    pub observed_time_unix_nano: u64,
    pub body: String,
}

#[derive(Clone, Debug)]
pub struct Span {
    pub name: String,
    pub kind: i32,
    pub trace_id: Vec<u8>,
    pub span_id: Vec<u8>,
    pub parent_span_id: Vec<u8>,
    pub links: Vec<(Vec<u8>, Vec<u8>)>,
    pub attrs: Attrs,
    pub resource: Attrs,
    pub status_code: i32,
    pub events: Vec<String>,
}

/// One metric data point: its attributes and value (histograms: count).
#[derive(Clone, Debug)]
pub struct Point {
    pub attrs: Attrs,
    pub value: f64,
}

#[derive(Clone, Debug, Default)]
pub struct Collected {
    pub logs: Vec<Log>,
    pub spans: Vec<Span>,
    /// Metric name to the points of the latest export that had it.
    pub metrics: HashMap<String, Vec<Point>>,
}

fn value(v: &Option<opentelemetry_proto::tonic::common::v1::AnyValue>) -> String {
    match v.as_ref().and_then(|v| v.value.as_ref()) {
        Some(any_value::Value::StringValue(s)) => s.clone(),
        Some(any_value::Value::IntValue(i)) => i.to_string(),
        Some(any_value::Value::BoolValue(b)) => b.to_string(),
        Some(any_value::Value::DoubleValue(d)) => d.to_string(),
        Some(other) => format!("{other:?}"),
        None => String::new(),
    }
}

fn attrs(kvs: &[KeyValue]) -> Attrs {
    kvs.iter()
        .map(|kv| (kv.key.clone(), value(&kv.value)))
        .collect()
}

impl Collected {
    pub fn add_logs(&mut self, req: ExportLogsServiceRequest) {
        for rl in req.resource_logs {
            let resource = attrs(&rl.resource.map(|r| r.attributes).unwrap_or_default());
            for sl in rl.scope_logs {
                let scope = sl.scope.map(|s| (s.name, s.version)).unwrap_or_default();
                for r in sl.log_records {
                    self.logs.push(Log {
                        event_name: r.event_name,
                        severity_number: r.severity_number,
                        severity_text: r.severity_text,
                        scope: scope.clone(),
                        attrs: attrs(&r.attributes),
                        resource: resource.clone(),
                        trace_id: r.trace_id,
                        time_unix_nano: r.time_unix_nano,
                        observed_time_unix_nano: r.observed_time_unix_nano,
                        body: value(&r.body),
                    });
                }
            }
        }
    }

    pub fn add_spans(&mut self, req: ExportTraceServiceRequest) {
        for rs in req.resource_spans {
            let resource = attrs(&rs.resource.map(|r| r.attributes).unwrap_or_default());
            for ss in rs.scope_spans {
                for s in ss.spans {
                    self.spans.push(Span {
                        name: s.name,
                        kind: s.kind,
                        trace_id: s.trace_id,
                        span_id: s.span_id,
                        parent_span_id: s.parent_span_id,
                        links: s
                            .links
                            .into_iter()
                            .map(|l| (l.trace_id, l.span_id))
                            .collect(),
                        attrs: attrs(&s.attributes),
                        resource: resource.clone(),
                        status_code: s.status.map(|st| st.code).unwrap_or(0),
                        events: s.events.into_iter().map(|e| e.name).collect(),
                    });
                }
            }
        }
    }

    pub fn add_metrics(&mut self, req: ExportMetricsServiceRequest) {
        for rm in req.resource_metrics {
            for sm in rm.scope_metrics {
                for m in sm.metrics {
                    let points: Vec<Point> = match m.data {
                        Some(metric::Data::Sum(s)) => s.data_points.iter().map(number).collect(),
                        Some(metric::Data::Gauge(g)) => g.data_points.iter().map(number).collect(),
                        Some(metric::Data::Histogram(h)) => h
                            .data_points
                            .iter()
                            .map(|p| Point {
                                attrs: attrs(&p.attributes),
                                value: p.count as f64,
                            })
                            .collect(),
                        _ => continue,
                    };
                    self.metrics.insert(m.name, points);
                }
            }
        }
    }
}

fn number(p: &opentelemetry_proto::tonic::metrics::v1::NumberDataPoint) -> Point {
    let value = match p.value {
        Some(number_data_point::Value::AsInt(i)) => i as f64,
        Some(number_data_point::Value::AsDouble(d)) => d,
        None => f64::NAN,
    };
    Point {
        attrs: attrs(&p.attributes),
        value,
    }
}
