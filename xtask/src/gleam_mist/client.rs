//! The client side of the mist check: a fixed script of HTTP/1.1
//! exchanges and a websocket session over `std::net`, each on a connection
//! of its own, recorded as the bytes the server answered. Responses are read
//! by their own framing (`content-length`, `transfer-encoding: chunked`, the
//! end of the headers of a `101`), so that a keep-alive connection carries
//! several; each connection ends with a half-close and whatever the server
//! sends until it closes, so that a server that closes (or fails to) shows.
//! The same script runs over TLS ([`Transport::Tls`], rustls), where the
//! half-close is TLS's `close_notify`.

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};
use std::io::{ErrorKind, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::path::Path;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// How long one read may wait for the server.
const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the client waits after a connection whose handler the server
/// ends abnormally (a crash, a malformed request). mist closes the socket
/// first and its handler exits after, taking its acceptor with it; that
/// acceptor is by then waiting in accept again, so a connection made in
/// between goes to it and is closed with it, on erl as on beamr (erl is
/// just quick to close the gap).
const SETTLE: Duration = Duration::from_secs(1);

/// What the client sends on one connection, step by step.
pub enum Step {
    /// Bytes sent as they are, then one response read by its framing.
    Http(&'static [u8]),
    /// Bytes sent as they are, then a response's head only (as to HEAD).
    Head(&'static [u8]),
    /// A body of `n` bytes POSTed to `path`, then its response.
    LargePost(&'static str, usize),
    /// The half-close and what follows it (as at the end of every
    /// connection), then a pause: see [`SETTLE`]. Last, where present.
    Settle,
    /// A websocket frame sent (masked, as a client must), then one frame read.
    Frame {
        /// The frame's opcode (1 text, 2 binary, 8 close, 9 ping).
        opcode: u8,
        /// Its payload, under 64 KiB.
        payload: &'static [u8],
    },
}

/// One connection's script, named for the report.
pub struct Exchange {
    /// What the exchange shows, for the report.
    pub name: &'static str,
    /// What is sent, in order, on the one connection.
    pub steps: Vec<Step>,
}

/// The websocket handshake request; the key is fixed, so the accept header
/// the server computes from it is too.
pub const WS_HANDSHAKE: &[u8] = b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n\
Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

/// A text frame's payload long enough for a 16-bit length.
const LONG_TEXT: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz\
0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz";

/// The script: every route of `tests/gleam/mist_app`, keep-alive, handler
/// crashes followed by more requests, malformed requests, and a websocket
/// echo. Not pipelining: mist on erl answers the first of two requests
/// sent in one write and then either waits or closes, by timing.
pub fn script() -> Vec<Exchange> {
    use Step::*;
    let crash: &[u8] = b"GET /crash HTTP/1.1\r\nHost: localhost\r\n\r\n";
    let mut exchanges = vec![
        Exchange {
            name: "keep-alive GETs: /hello, query parameters, JSON",
            steps: vec![
                Http(b"GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n"),
                Http(b"GET /query?name=J%C3%BCrgen&sp=a+b%20c&empty=&flag HTTP/1.1\r\nHost: localhost\r\n\r\n"),
                Http(b"GET /json?name=Z%C3%B6e%22q HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n"),
                Http(b"GET /work?n=2500 HTTP/1.1\r\nHost: localhost\r\n\r\n"),
            ],
        },
        Exchange {
            name: "POST echo and JSON bodies",
            steps: vec![
                Http(b"POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-thing\r\nContent-Length: 11\r\n\r\nhello\r\nmist"),
                Http(b"POST /sum HTTP/1.1\r\nHost: localhost\r\nContent-Length: 27\r\n\r\n{\"numbers\": [1, 2, 3, -40]}"),
                Http(b"POST /sum HTTP/1.1\r\nHost: localhost\r\nContent-Length: 19\r\n\r\n{\"numbers\":[1,\"x\"]}"),
                Http(b"POST /sum HTTP/1.1\r\nHost: localhost\r\nContent-Length: 9\r\n\r\nnot json!"),
            ],
        },
        Exchange {
            name: "a 100 kB POST echoed",
            steps: vec![LargePost("/echo", 100_000)],
        },
        Exchange {
            name: "404s: an unknown path, a known path with another method",
            steps: vec![
                Http(b"GET /nope/deeper?x=1 HTTP/1.1\r\nHost: localhost\r\n\r\n"),
                Http(b"DELETE /hello HTTP/1.1\r\nHost: localhost\r\n\r\n"),
            ],
        },
        Exchange {
            name: "files through sendfile: whole, a part, missing",
            steps: vec![
                Http(b"GET /file/gleam.toml HTTP/1.1\r\nHost: localhost\r\n\r\n"),
                Http(b"GET /file/part HTTP/1.1\r\nHost: localhost\r\n\r\n"),
                Http(b"GET /file/missing HTTP/1.1\r\nHost: localhost\r\n\r\n"),
            ],
        },
        Exchange {
            name: "HEAD, and a body over the limit",
            steps: vec![
                Head(b"HEAD /hello HTTP/1.1\r\nHost: localhost\r\n\r\n"),
                Http(b"POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2000000\r\n\r\n"),
            ],
        },
        Exchange {
            name: "a chunked request body echoed",
            steps: vec![Http(
                b"POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n\
5\r\nhello\r\n7\r\n, mist!\r\n0\r\n\r\n",
            )],
        },
        Exchange {
            name: "server-sent events",
            steps: vec![Http(b"GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")],
        },
        Exchange {
            name: "HTTP/1.0",
            steps: vec![Http(b"GET /query?v=1.0 HTTP/1.0\r\nHost: localhost\r\n\r\n")],
        },
        Exchange {
            name: "a chunked response",
            steps: vec![Http(b"GET /chunked HTTP/1.1\r\nHost: localhost\r\n\r\n")],
        },
        Exchange {
            name: "a websocket echo: text, binary, ping, close",
            steps: vec![
                Http(WS_HANDSHAKE),
                Frame { opcode: 0x1, payload: b"hello, websocket" },
                Frame { opcode: 0x2, payload: &[0, 1, 2, 254, 255] },
                Frame { opcode: 0x1, payload: LONG_TEXT },
                Frame { opcode: 0x9, payload: b"are you there" },
                Frame { opcode: 0x8, payload: &[0x03, 0xe8] },
            ],
        },
    ];
    // Each handler crash and each malformed request ends its connection's
    // acceptor abnormally, and glisten's acceptor supervisor allows 2
    // restarts in 5 s: the third of these four makes its parent restart
    // the whole pool of acceptors (those waiting in accept are killed), so
    // the requests after it show that fresh acceptors take the next
    // connections. Not many more: a burst of them stops the server on erl
    // as well (two restarts of the pool are all its parent allows).
    for name in ["a handler crash (1)", "a handler crash (2)"] {
        exchanges.push(Exchange {
            name,
            steps: vec![Http(crash), Settle],
        });
    }
    exchanges.extend([
        Exchange {
            name: "malformed: not HTTP",
            steps: vec![Http(b"GARBAGE\r\n\r\n"), Settle],
        },
        Exchange {
            name: "served after the pool's restart",
            steps: vec![Http(b"GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")],
        },
        Exchange {
            name: "malformed: a header line without a colon",
            steps: vec![
                Http(b"GET /hello HTTP/1.1\r\nHost: localhost\r\nno colon here\r\n\r\n"),
                Settle,
            ],
        },
        Exchange {
            name: "served at the end",
            steps: vec![Http(b"GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n")],
        },
    ]);
    exchanges
}

/// How the client reaches the server.
pub enum Transport {
    /// Plain TCP.
    Tcp,
    /// TLS over TCP, with this configuration (see [`tls_config`]), the
    /// server named `localhost`.
    Tls(Arc<ClientConfig>),
}

/// A client configuration that trusts only the CA certificate in
/// `ca_file` (PEM) and offers only TLS `version` (1.2 or 1.3).
pub fn tls_config(ca_file: &Path, version: u8) -> Result<Arc<ClientConfig>, String> {
    let ca = CertificateDer::from_pem_file(ca_file)
        .map_err(|e| format!("{}: {e}", ca_file.display()))?;
    let mut roots = RootCertStore::empty();
    roots
        .add(ca)
        .map_err(|e| format!("{}: {e}", ca_file.display()))?;
    let versions: &[&rustls::SupportedProtocolVersion] = match version {
        12 => &[&rustls::version::TLS12],
        13 => &[&rustls::version::TLS13],
        _ => return Err(format!("TLS 1.{} is not offered", version % 10)),
    };
    let config =
        ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
            .with_protocol_versions(versions)
            .map_err(|e| format!("TLS 1.{}: {e}", version % 10))?
            .with_root_certificates(roots)
            .with_no_client_auth();
    Ok(Arc::new(config))
}

/// One connection the script runs on: plain TCP, or TLS over it.
trait Connection: Read + Write {
    /// Tells the server that nothing more comes: TCP's half-close, or
    /// TLS's `close_notify` (which TLS has in place of one).
    fn finish_sending(&mut self) -> std::io::Result<()>;
}

impl Connection for TcpStream {
    fn finish_sending(&mut self) -> std::io::Result<()> {
        self.shutdown(Shutdown::Write)
    }
}

impl Connection for StreamOwned<ClientConnection, TcpStream> {
    fn finish_sending(&mut self) -> std::io::Result<()> {
        self.conn.send_close_notify();
        self.flush()
    }
}

/// A connection to `127.0.0.1:port` over `transport`, its reads bounded
/// by [`READ_TIMEOUT`]. A TLS handshake happens with the first write.
fn connect(port: u16, transport: &Transport) -> Result<Box<dyn Connection>, String> {
    let stream = TcpStream::connect(("127.0.0.1", port))
        .map_err(|e| format!("cannot connect: {}", e.kind()))?;
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    match transport {
        Transport::Tcp => Ok(Box::new(stream)),
        Transport::Tls(config) => {
            let name = ServerName::try_from("localhost").map_err(|e| e.to_string())?;
            let tls = ClientConnection::new(Arc::clone(config), name)
                .map_err(|e| format!("cannot start TLS: {e}"))?;
            Ok(Box::new(StreamOwned::new(tls, stream)))
        }
    }
}

/// The exchanges the script also runs over TLS: each kind of body and
/// response framing, the websocket, a handler crash and a request after it.
const OVER_TLS: [&str; 8] = [
    "keep-alive GETs: /hello, query parameters, JSON",
    "POST echo and JSON bodies",
    "a 100 kB POST echoed",
    "a chunked request body echoed",
    "a chunked response",
    "a websocket echo: text, binary, ping, close",
    "a handler crash (1)",
    "served at the end",
];

/// The part of [`script`] that runs over TLS as well (see [`OVER_TLS`]).
pub fn tls_script() -> Vec<Exchange> {
    script()
        .into_iter()
        .filter(|e| OVER_TLS.contains(&e.name))
        .collect()
}

/// Runs `exchange` against `127.0.0.1:port` over `transport`: the bytes
/// answered to each step, then what came after the half-close (or why
/// reading stopped), as one text for comparison (bytes escaped where not
/// printable).
pub fn run(port: u16, transport: &Transport, exchange: &Exchange) -> String {
    let mut out = String::new();
    let mut stream = match connect(port, transport) {
        Ok(s) => s,
        Err(e) => return format!("{e}\n"),
    };
    let mut reader = Reader {
        stream: &mut *stream,
        buf: Vec::new(),
    };
    for (i, step) in exchange.steps.iter().enumerate() {
        if !matches!(step, Step::Settle) {
            out.push_str(&format!("step {i}:\n"));
        }
        let answered = match step {
            Step::Http(bytes) => reader.send(bytes).and_then(|()| reader.response()),
            Step::Head(bytes) => reader.send(bytes).and_then(|()| {
                let mut head = Vec::new();
                reader.until(b"\r\n\r\n", &mut head).map(|()| head)
            }),
            Step::LargePost(path, n) => {
                let body: Vec<u8> = (0..*n).map(|i| b'a' + (i % 26) as u8).collect();
                let mut request = format!(
                    "POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Length: {n}\r\n\r\n"
                )
                .into_bytes();
                request.extend(body);
                reader.send(&request).and_then(|()| reader.response())
            }
            Step::Settle => {
                out.push_str(&end(&mut reader));
                thread::sleep(SETTLE);
                return out;
            }
            Step::Frame { opcode, payload } => reader
                .send(&masked_frame(*opcode, payload))
                .and_then(|()| reader.frame()),
        };
        match answered {
            Ok(bytes) => out.push_str(&escape(&bytes)),
            Err(why) => {
                out.push_str(&format!("<{why}>\n"));
                if exchange.steps.iter().any(|s| matches!(s, Step::Settle)) {
                    thread::sleep(SETTLE);
                }
                return out;
            }
        }
        out.push('\n');
    }
    out.push_str(&end(&mut reader));
    out
}

/// Half-closes the connection and reads what the server sends until it
/// closes.
fn end(reader: &mut Reader<'_>) -> String {
    let _ = reader.stream.finish_sending();
    match reader.rest() {
        Ok(bytes) => format!("after the half-close:\n{}<closed>\n", escape(&bytes)),
        Err(why) => format!("after the half-close:\n<{why}>\n"),
    }
}

/// `text` with each `date` header's value replaced: the one part of an
/// answer that legitimately differs between two runs.
pub fn mask_dates(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("date: ") {
        let after = &rest[i + "date: ".len()..];
        // Only a header: at the start of a line.
        let is_header = (out.is_empty() && i == 0) || rest[..i].ends_with('\n');
        out.push_str(&rest[..i + "date: ".len()]);
        rest = after;
        if is_header {
            let end = rest.find("\\r\\n").unwrap_or(rest.len());
            out.push_str("<date>");
            rest = &rest[end..];
        }
    }
    out.push_str(rest);
    out
}

/// `bytes` escaped as the reports show them, `date` headers masked: what
/// two answers are compared by.
pub fn masked(bytes: &[u8]) -> String {
    mask_dates(&escape(bytes))
}

/// A plain connection to `127.0.0.1:port` for [`exchange`], its reads
/// bounded by [`READ_TIMEOUT`].
pub fn keep_alive(port: u16) -> Result<TcpStream, String> {
    let stream = TcpStream::connect(("127.0.0.1", port))
        .map_err(|e| format!("cannot connect: {}", e.kind()))?;
    let _ = stream.set_read_timeout(Some(READ_TIMEOUT));
    Ok(stream)
}

/// Sends `request` on `stream` and reads one response by its framing;
/// bytes after it (which nothing asked for) are an error.
pub fn exchange(stream: &mut TcpStream, request: &[u8]) -> Result<Vec<u8>, String> {
    let mut reader = Reader {
        stream,
        buf: Vec::new(),
    };
    reader.send(request)?;
    let response = reader.response()?;
    if reader.buf.is_empty() {
        Ok(response)
    } else {
        Err(format!("{} bytes after the response", reader.buf.len()))
    }
}

/// A client frame: FIN, `opcode`, masked `payload` (under 64 KiB).
fn masked_frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let key = [0x12, 0x34, 0x56, 0x78];
    let mut frame = vec![0x80 | opcode];
    match u8::try_from(payload.len()) {
        Ok(n) if n < 126 => frame.push(0x80 | n),
        _ => {
            frame.push(0x80 | 126);
            frame.extend((payload.len() as u16).to_be_bytes());
        }
    }
    frame.extend(key);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ key[i % 4]));
    frame
}

/// Printable ASCII as it is, `\r` and `\n` escaped (a newline kept after
/// `\n` for readable reports), anything else as `\xNN`.
fn escape(bytes: &[u8]) -> String {
    let mut s = String::new();
    for &b in bytes {
        match b {
            b'\r' => s.push_str("\\r"),
            b'\n' => s.push_str("\\n\n"),
            b'\\' => s.push_str("\\\\"),
            0x20..=0x7e => s.push(b as char),
            _ => s.push_str(&format!("\\x{b:02x}")),
        }
    }
    s
}

/// A connection and the bytes read from it but not yet consumed.
struct Reader<'a> {
    stream: &'a mut dyn Connection,
    buf: Vec<u8>,
}

impl Reader<'_> {
    fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.stream
            .write_all(bytes)
            .map_err(|e| format!("send failed: {}", e.kind()))
    }

    /// Reads more bytes into the buffer; false at the end of the stream.
    fn fill(&mut self) -> Result<bool, String> {
        let mut chunk = [0u8; 16384];
        match self.stream.read(&mut chunk) {
            Ok(0) => Ok(false),
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                Ok(true)
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                Err(format!("no answer within {} s", READ_TIMEOUT.as_secs()))
            }
            // TLS's errors (an alert, a bad record) say more than their kind.
            Err(e) if e.kind() == ErrorKind::InvalidData => Err(format!("read failed: {e}")),
            Err(e) => Err(format!("read failed: {}", e.kind())),
        }
    }

    /// The first `n` buffered bytes, read until there are that many.
    fn take(&mut self, n: usize, taken: &mut Vec<u8>) -> Result<(), String> {
        while self.buf.len() < n {
            if !self.fill()? {
                taken.append(&mut self.buf);
                return Err(format!(
                    "closed after {} bytes: {}",
                    taken.len(),
                    escape(taken)
                ));
            }
        }
        taken.extend(self.buf.drain(..n));
        Ok(())
    }

    /// Buffered bytes through the next CRLF (or the next blank line).
    fn until(&mut self, end: &[u8], taken: &mut Vec<u8>) -> Result<(), String> {
        loop {
            if let Some(i) = self.buf.windows(end.len()).position(|w| w == end) {
                taken.extend(self.buf.drain(..i + end.len()));
                return Ok(());
            }
            if !self.fill()? {
                taken.append(&mut self.buf);
                return Err(format!(
                    "closed after {} bytes: {}",
                    taken.len(),
                    escape(taken)
                ));
            }
        }
    }

    /// One HTTP response, read by its framing; the bytes as they came.
    fn response(&mut self) -> Result<Vec<u8>, String> {
        let mut taken = Vec::new();
        self.until(b"\r\n\r\n", &mut taken)?;
        let head = String::from_utf8_lossy(&taken).to_ascii_lowercase();
        let header = |name: &str| {
            head.split("\r\n")
                .find_map(|l| l.strip_prefix(name).map(|v| v.trim().to_string()))
        };
        if head.starts_with("http/1.1 101") {
            return Ok(taken);
        }
        if header("transfer-encoding:").is_some_and(|v| v == "chunked") {
            loop {
                let start = taken.len();
                self.until(b"\r\n", &mut taken)?;
                let line = String::from_utf8_lossy(&taken[start..taken.len() - 2]).into_owned();
                let size = usize::from_str_radix(line.split(';').next().unwrap_or("").trim(), 16)
                    .map_err(|_| format!("bad chunk size line {line:?}"))?;
                self.take(size + 2, &mut taken)?;
                if size == 0 {
                    return Ok(taken);
                }
            }
        }
        match header("content-length:") {
            Some(v) => {
                let n: usize = v
                    .parse()
                    .map_err(|_| format!("bad content-length {v:?} in the response"))?;
                self.take(n, &mut taken)?;
                Ok(taken)
            }
            None => {
                // No framing: the body runs to the end of the stream.
                taken.extend(self.rest()?);
                Ok(taken)
            }
        }
    }

    /// One websocket frame from the server (unmasked, as a server sends).
    fn frame(&mut self) -> Result<Vec<u8>, String> {
        let mut taken = Vec::new();
        self.take(2, &mut taken)?;
        let len = match taken[1] & 0x7f {
            126 => {
                self.take(2, &mut taken)?;
                u16::from_be_bytes([taken[2], taken[3]]) as usize
            }
            127 => return Err("a frame over 64 KiB".into()),
            n => n as usize,
        };
        self.take(len, &mut taken)?;
        Ok(taken)
    }

    /// Everything until the server closes.
    fn rest(&mut self) -> Result<Vec<u8>, String> {
        let deadline = Instant::now() + READ_TIMEOUT;
        while self.fill()? {
            if Instant::now() > deadline {
                return Err("the server kept sending".into());
            }
        }
        Ok(std::mem::take(&mut self.buf))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_date_headers_are_masked() {
        let text = escape(b"HTTP/1.1 200 OK\r\ndate: Wed, 02 Dec 2026 01:17:51 GMT\r\nx: 1\r\n\r\nthe date: today");
        assert_eq!(
            mask_dates(&text),
            "HTTP/1.1 200 OK\\r\\n\ndate: <date>\\r\\n\nx: 1\\r\\n\n\\r\\n\nthe date: today"
        );
    }

    #[test]
    fn client_frames_are_masked() {
        let frame = masked_frame(0x1, b"ab");
        assert_eq!(frame[..2], [0x81, 0x82]);
        assert_eq!(frame[6] ^ frame[2], b'a');
        assert_eq!(frame[7] ^ frame[3], b'b');
    }

    #[test]
    fn every_tls_exchange_is_in_the_script() {
        assert_eq!(tls_script().len(), OVER_TLS.len());
    }

    #[test]
    fn escapes_what_is_not_printable() {
        assert_eq!(escape(b"a\r\n\x01\\"), "a\\r\\n\n\\x01\\\\");
    }
}
