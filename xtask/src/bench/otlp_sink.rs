//! A loopback OTLP/HTTP sink for the traced table's `--trace-to otel` runs:
//! it takes every export request, answers it, and counts it, so beamr's
//! exporter does all of its work (encode, send over a socket, wait for the
//! answer) without a collector installed.
//!
//! It speaks just enough HTTP/1.1 for an OTLP exporter: requests with a
//! `Content-Length` or `Transfer-Encoding: chunked` body, on kept-alive
//! connections, one thread per connection. Every request is answered
//! `200 OK` with an empty `application/x-protobuf` body, which is a valid
//! `Export*ServiceResponse` (every field at its default: nothing rejected).
//! The exporter must use `OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf`.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Requests and body bytes received, per path (`/v1/traces`...).
pub type Received = BTreeMap<String, (u64, u64)>;

/// The running sink; stops when dropped.
pub struct Sink {
    addr: SocketAddr,
    received: Arc<Mutex<Received>>,
    stop: Arc<AtomicBool>,
    acceptor: Option<JoinHandle<()>>,
}

impl Sink {
    /// Listens on a free loopback port.
    pub fn start() -> io::Result<Sink> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let received = Arc::new(Mutex::new(Received::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let acceptor = {
            let (received, stop) = (received.clone(), stop.clone());
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let received = received.clone();
                    std::thread::spawn(move || {
                        let _ = serve(stream, &received);
                    });
                }
            })
        };
        Ok(Sink {
            addr,
            received,
            stop,
            acceptor: Some(acceptor),
        })
    }

    /// The base URL for `OTEL_EXPORTER_OTLP_ENDPOINT`.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// What arrived since the last call; starts counting afresh.
    pub fn take(&self) -> Received {
        std::mem::take(&mut *self.received.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wakes the acceptor, which sees `stop` and ends.
        let _ = TcpStream::connect(self.addr);
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

/// Answers the requests of one connection until the client closes it.
fn serve(stream: TcpStream, received: &Mutex<Received>) -> io::Result<()> {
    let mut writer = stream.try_clone()?;
    let mut reader = BufReader::new(stream);
    while let Some(request) = read_request(&mut reader)? {
        {
            let mut received = received.lock().unwrap_or_else(|e| e.into_inner());
            let entry = received.entry(request.path).or_default();
            entry.0 += 1;
            entry.1 += request.body_len;
        }
        writer.write_all(
            b"HTTP/1.1 200 OK\r\ncontent-type: application/x-protobuf\r\ncontent-length: 0\r\n\r\n",
        )?;
        writer.flush()?;
        if request.close {
            break;
        }
    }
    Ok(())
}

/// One request, as far as the sink cares.
#[derive(Debug, PartialEq, Eq)]
struct Request {
    /// The request target (`/v1/traces`).
    path: String,
    /// The body's length in bytes (after de-chunking).
    body_len: u64,
    /// `Connection: close`: the last request of the connection.
    close: bool,
}

/// Reads one request (its body read and dropped); `None` at a clean end
/// of the connection.
fn read_request(reader: &mut impl BufRead) -> io::Result<Option<Request>> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_owned());
    let mut parts = line.split_whitespace();
    let (_method, path) = match (parts.next(), parts.next()) {
        (Some(m), Some(p)) => (m.to_owned(), p.to_owned()),
        _ => return Err(bad("no request line")),
    };
    let (mut length, mut chunked, mut close) = (0u64, false, false);
    loop {
        line.clear();
        if reader.read_line(&mut line)? == 0 {
            return Err(bad("the headers do not end"));
        }
        let header = line.trim_end();
        if header.is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            return Err(bad("a header without a colon"));
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = value.parse().map_err(|_| bad("content-length"))?,
            "transfer-encoding" => chunked = value.eq_ignore_ascii_case("chunked"),
            "connection" => close = value.eq_ignore_ascii_case("close"),
            _ => {}
        }
    }
    let body_len = if chunked {
        read_chunks(reader)?
    } else {
        skip(reader, length)?;
        length
    };
    Ok(Some(Request {
        path,
        body_len,
        close,
    }))
}

/// Reads a chunked body and its trailers; returns its length.
fn read_chunks(reader: &mut impl BufRead) -> io::Result<u64> {
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_owned());
    let mut total = 0;
    let mut line = String::new();
    loop {
        line.clear();
        reader.read_line(&mut line)?;
        let size = line.trim_end().split(';').next().unwrap_or("");
        let size = u64::from_str_radix(size.trim(), 16).map_err(|_| bad("a chunk size"))?;
        if size == 0 {
            // Trailers, up to an empty line.
            loop {
                line.clear();
                if reader.read_line(&mut line)? == 0 || line.trim_end().is_empty() {
                    return Ok(total);
                }
            }
        }
        skip(reader, size)?;
        total += size;
        line.clear();
        reader.read_line(&mut line)?; // the CRLF after the chunk
    }
}

/// Reads and drops exactly `n` bytes.
fn skip(reader: &mut impl Read, n: u64) -> io::Result<()> {
    let copied = io::copy(&mut reader.take(n), &mut io::sink())?;
    if copied == n {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the body ends early",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn reads_requests_with_a_length_or_chunks() {
        let text = "POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello\
                    POST /v1/logs HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n\
                    POST /v1/metrics HTTP/1.1\r\nConnection: close\r\ncontent-length: 0\r\n\r\n";
        let mut reader = Cursor::new(text.as_bytes());
        let mut next = || read_request(&mut reader).unwrap();
        let request = |path: &str, body_len, close| Request {
            path: path.into(),
            body_len,
            close,
        };
        assert_eq!(next(), Some(request("/v1/traces", 5, false)));
        assert_eq!(next(), Some(request("/v1/logs", 5, false)));
        assert_eq!(next(), Some(request("/v1/metrics", 0, true)));
        assert_eq!(next(), None);
    }

    #[test]
    fn rejects_broken_requests() {
        for text in [
            "\r\n",
            "POST /v1/traces HTTP/1.1\r\nContent-Length: 9\r\n\r\nshort",
            "POST /v1/traces HTTP/1.1\r\nno colon\r\n\r\n",
            "POST /v1/traces HTTP/1.1\r\nContent-Length: 1",
            "POST / HTTP/1.1\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n",
        ] {
            let mut reader = Cursor::new(text.as_bytes());
            assert!(read_request(&mut reader).is_err(), "{text:?}");
        }
    }

    #[test]
    fn answers_and_counts_over_a_socket() {
        let sink = Sink::start().unwrap();
        let addr = sink.endpoint().trim_start_matches("http://").to_owned();
        let mut client = TcpStream::connect(addr).unwrap();
        for _ in 0..2 {
            client
                .write_all(b"POST /v1/traces HTTP/1.1\r\ncontent-length: 3\r\n\r\nabc")
                .unwrap();
        }
        let mut reader = BufReader::new(client);
        for _ in 0..2 {
            let mut status = String::new();
            reader.read_line(&mut status).unwrap();
            assert_eq!(status, "HTTP/1.1 200 OK\r\n");
            let mut line = String::new();
            while {
                line.clear();
                reader.read_line(&mut line).unwrap();
                line != "\r\n"
            } {}
        }
        assert_eq!(sink.take()["/v1/traces"], (2, 6));
        assert!(sink.take().is_empty(), "taking starts afresh");
    }
}
