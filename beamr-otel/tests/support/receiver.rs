//! A real OTLP receiver on 127.0.0.1: gRPC (a tonic server built from
//! opentelemetry-proto's service definitions) or HTTP (a small HTTP/1.1
//! server taking `/v1/{traces,logs,metrics}` as protobuf or JSON). Both stop
//! when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use opentelemetry_proto::tonic::collector::logs::v1::logs_service_server::{
    LogsService, LogsServiceServer,
};
use opentelemetry_proto::tonic::collector::logs::v1::{
    ExportLogsServiceRequest, ExportLogsServiceResponse,
};
use opentelemetry_proto::tonic::collector::metrics::v1::metrics_service_server::{
    MetricsService, MetricsServiceServer,
};
use opentelemetry_proto::tonic::collector::metrics::v1::{
    ExportMetricsServiceRequest, ExportMetricsServiceResponse,
};
use opentelemetry_proto::tonic::collector::trace::v1::trace_service_server::{
    TraceService, TraceServiceServer,
};
use opentelemetry_proto::tonic::collector::trace::v1::{
    ExportTraceServiceRequest, ExportTraceServiceResponse,
};
use prost::Message;

use super::model::Collected;

type Shared = Arc<Mutex<Collected>>;

enum Stop {
    Grpc {
        shutdown: Option<tokio::sync::oneshot::Sender<()>>,
        runtime: Option<tokio::runtime::Runtime>,
    },
    Http(Arc<AtomicBool>),
}

/// A running receiver.
pub struct Receiver {
    pub addr: SocketAddr,
    collected: Shared,
    stop: Stop,
    /// Requests seen, as `path content-type` (HTTP) or `grpc service`.
    pub requests: Arc<Mutex<Vec<String>>>,
}

struct Svc(Shared, Arc<Mutex<Vec<String>>>);

#[tonic::async_trait]
impl TraceService for Svc {
    async fn export(
        &self,
        request: tonic::Request<ExportTraceServiceRequest>,
    ) -> Result<tonic::Response<ExportTraceServiceResponse>, tonic::Status> {
        self.1.lock().unwrap().push("grpc traces".into());
        self.0.lock().unwrap().add_spans(request.into_inner());
        Ok(tonic::Response::new(ExportTraceServiceResponse::default()))
    }
}

#[tonic::async_trait]
impl LogsService for Svc {
    async fn export(
        &self,
        request: tonic::Request<ExportLogsServiceRequest>,
    ) -> Result<tonic::Response<ExportLogsServiceResponse>, tonic::Status> {
        self.1.lock().unwrap().push("grpc logs".into());
        self.0.lock().unwrap().add_logs(request.into_inner());
        Ok(tonic::Response::new(ExportLogsServiceResponse::default()))
    }
}

#[tonic::async_trait]
impl MetricsService for Svc {
    async fn export(
        &self,
        request: tonic::Request<ExportMetricsServiceRequest>,
    ) -> Result<tonic::Response<ExportMetricsServiceResponse>, tonic::Status> {
        self.1.lock().unwrap().push("grpc metrics".into());
        self.0.lock().unwrap().add_metrics(request.into_inner());
        Ok(tonic::Response::new(ExportMetricsServiceResponse::default()))
    }
}

impl Receiver {
    /// A gRPC receiver on a free loopback port.
    pub fn grpc() -> Receiver {
        let collected = Shared::default();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let incoming = {
            let _g = runtime.enter();
            tonic::transport::server::TcpIncoming::bind("127.0.0.1:0".parse().unwrap()).unwrap()
        };
        let addr = incoming.local_addr().unwrap();
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let (c, r) = (Arc::clone(&collected), Arc::clone(&requests));
        runtime.spawn(async move {
            tonic::transport::Server::builder()
                .add_service(TraceServiceServer::new(Svc(Arc::clone(&c), Arc::clone(&r))))
                .add_service(LogsServiceServer::new(Svc(Arc::clone(&c), Arc::clone(&r))))
                .add_service(MetricsServiceServer::new(Svc(c, r)))
                .serve_with_incoming_shutdown(incoming, async {
                    let _ = rx.await;
                })
                .await
                .unwrap();
        });
        Receiver {
            addr,
            collected,
            stop: Stop::Grpc {
                shutdown: Some(tx),
                runtime: Some(runtime),
            },
            requests,
        }
    }

    /// An HTTP receiver (protobuf and JSON bodies) on a free loopback port.
    pub fn http() -> Receiver {
        let collected = Shared::default();
        let requests = Arc::new(Mutex::new(Vec::new()));
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let (c, r, s) = (
            Arc::clone(&collected),
            Arc::clone(&requests),
            Arc::clone(&stop),
        );
        std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        let (c, r, s) = (Arc::clone(&c), Arc::clone(&r), Arc::clone(&s));
                        std::thread::spawn(move || serve_http(stream, &c, &r, &s));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Receiver {
            addr,
            collected,
            stop: Stop::Http(stop),
            requests,
        }
    }

    /// The base URL to export to.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Waits (at most `timeout`) until `done` holds for what was received,
    /// and returns it either way.
    pub fn wait_until(&self, timeout: Duration, done: impl Fn(&Collected) -> bool) -> Collected {
        let deadline = Instant::now() + timeout;
        loop {
            let c = self.collected.lock().unwrap().clone();
            if done(&c) || Instant::now() >= deadline {
                return c;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        match &mut self.stop {
            Stop::Grpc { shutdown, runtime } => {
                if let Some(tx) = shutdown.take() {
                    let _ = tx.send(());
                }
                if let Some(rt) = runtime.take() {
                    rt.shutdown_timeout(Duration::from_secs(2));
                }
            }
            Stop::Http(flag) => flag.store(true, Ordering::Relaxed),
        }
    }
}

/// Serves HTTP/1.1 requests on one connection until it closes or the
/// receiver stops.
fn serve_http(
    stream: TcpStream,
    collected: &Shared,
    requests: &Mutex<Vec<String>>,
    stop: &AtomicBool,
) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let mut writer = match stream.try_clone() {
        Ok(w) => w,
        Err(_) => return,
    };
    let mut reader = BufReader::new(stream);
    while !stop.load(Ordering::Relaxed) {
        let mut line = String::new();
        match reader.read_line(&mut line) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                continue
            }
            Err(_) => return,
        }
        // The rest of a request that has begun: a client a loaded machine
        // holds up mid-request must not lose it, so wait long for it (the
        // short timeout above only lets an idle connection see `stop`).
        let _ = reader
            .get_mut()
            .set_read_timeout(Some(Duration::from_secs(60)));
        let path = line.split_whitespace().nth(1).unwrap_or("").to_string();
        let mut length = 0usize;
        let mut content_type = String::new();
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h).unwrap_or(0) == 0 {
                return;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                match k.trim().to_ascii_lowercase().as_str() {
                    "content-length" => length = v.trim().parse().unwrap_or(0),
                    "content-type" => content_type = v.trim().to_string(),
                    _ => {}
                }
            }
        }
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        let _ = reader
            .get_mut()
            .set_read_timeout(Some(Duration::from_millis(200)));
        requests
            .lock()
            .unwrap()
            .push(format!("{path} {content_type}"));
        let json = content_type.contains("json");
        let ok = {
            let mut c = collected.lock().unwrap();
            match path.as_str() {
                "/v1/traces" => {
                    decode::<ExportTraceServiceRequest>(&body, json).map(|r| c.add_spans(r))
                }
                "/v1/logs" => {
                    decode::<ExportLogsServiceRequest>(&body, json).map(|r| c.add_logs(r))
                }
                "/v1/metrics" => {
                    decode::<ExportMetricsServiceRequest>(&body, json).map(|r| c.add_metrics(r))
                }
                _ => None,
            }
            .is_some()
        };
        let (status, ctype, resp) = match (ok, json) {
            (true, true) => ("200 OK", "application/json", "{}"),
            (true, false) => ("200 OK", "application/x-protobuf", ""),
            (false, _) => ("400 Bad Request", "text/plain", "bad request"),
        };
        let head = format!(
            "HTTP/1.1 {status}\r\ncontent-type: {ctype}\r\ncontent-length: {}\r\n\r\n{resp}",
            resp.len()
        );
        if writer.write_all(head.as_bytes()).is_err() {
            return;
        }
    }
}

fn decode<T: Message + Default + serde::de::DeserializeOwned>(
    body: &[u8],
    json: bool,
) -> Option<T> {
    if json {
        serde_json::from_slice(body)
            .map_err(|e| eprintln!("json: {e}"))
            .ok()
    } else {
        T::decode(body).map_err(|e| eprintln!("protobuf: {e}")).ok()
    }
}
