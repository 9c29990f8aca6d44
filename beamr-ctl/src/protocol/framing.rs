//! Frames: how a [`Request`] or [`Reply`] travels on the socket.
//!
//! ```text
//! frame    = length: u32, big-endian (bytes of payload, at most MAX_FRAME)
//!            payload
//! payload  = version: u32, little-endian (messages::VERSION)
//!            body: the message, bincode 2 (standard configuration: variable-
//!            length integers, little-endian) through serde
//! ```
//!
//! A reader checks, in this order: the length is at most [`MAX_FRAME`]
//! (the payload's buffer grows as its bytes arrive, so a length alone
//! reserves nothing), the payload arrived whole, the
//! version is [`VERSION`] (read before the body, so a client of another
//! version learns why it is refused), and the body decodes to a message
//! with no byte left over. Decoding is bounded by the frame: no length
//! inside the body can make the decoder allocate more than [`MAX_FRAME`].

use std::io::{self, Read, Write};

use super::messages::{ErrorKind, ErrorReply, Reply, Request, VERSION};

/// The largest payload, in bytes: room for a large `.beam` file.
pub const MAX_FRAME: u32 = 32 << 20;

/// bincode's configuration for both sides, with the frame as its limit.
fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ MAX_FRAME as usize }>()
}

/// Why no frame was read.
#[derive(Debug)]
pub enum FrameError {
    /// The connection ended cleanly before a frame began.
    Closed,
    /// The connection ended inside a frame.
    Truncated,
    /// The peer said nothing for longer than the read timeout.
    TimedOut,
    /// The length is above [`MAX_FRAME`].
    Oversized(u32),
    /// Reading failed.
    Io(io::Error),
}

impl FrameError {
    /// The error reply for a request frame that could not be read, or
    /// `None` when the peer is gone ([`FrameError::Closed`], a failed read).
    pub fn reply(&self) -> Option<ErrorReply> {
        let (kind, message) = match self {
            FrameError::Closed | FrameError::Io(_) => return None,
            FrameError::Truncated => (
                ErrorKind::Truncated,
                "the connection ended inside a request frame".to_string(),
            ),
            FrameError::TimedOut => (
                ErrorKind::Truncated,
                "no complete request within the read timeout".to_string(),
            ),
            FrameError::Oversized(n) => (
                ErrorKind::Oversized,
                format!("a request frame of {n} bytes; at most {MAX_FRAME} are accepted"),
            ),
        };
        Some(ErrorReply { kind, message })
    }
}

impl std::fmt::Display for FrameError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FrameError::Closed => write!(f, "the connection was closed"),
            FrameError::Truncated => write!(f, "the connection ended inside a frame"),
            FrameError::TimedOut => write!(f, "no answer within the timeout"),
            FrameError::Oversized(n) => write!(f, "a frame of {n} bytes (at most {MAX_FRAME})"),
            FrameError::Io(e) => write!(f, "{e}"),
        }
    }
}

fn read_error(e: io::Error, started: bool) -> FrameError {
    match e.kind() {
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => FrameError::TimedOut,
        io::ErrorKind::UnexpectedEof if started => FrameError::Truncated,
        io::ErrorKind::UnexpectedEof => FrameError::Closed,
        _ => FrameError::Io(e),
    }
}

/// Reads one frame's payload.
pub fn read_frame(r: &mut impl Read) -> Result<Vec<u8>, FrameError> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < len.len() {
        match r.read(&mut len[got..]) {
            Ok(0) if got == 0 => return Err(FrameError::Closed),
            Ok(0) => return Err(FrameError::Truncated),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(read_error(e, got > 0)),
        }
    }
    let len = u32::from_be_bytes(len);
    if len > MAX_FRAME {
        return Err(FrameError::Oversized(len));
    }
    // Grown as bytes arrive, so that a length alone reserves nothing.
    let mut payload = Vec::new();
    r.take(u64::from(len))
        .read_to_end(&mut payload)
        .map_err(|e| read_error(e, true))?;
    if payload.len() < len as usize {
        return Err(FrameError::Truncated);
    }
    Ok(payload)
}

/// Writes `payload` as one frame.
pub fn write_frame(w: &mut impl Write, payload: &[u8]) -> io::Result<()> {
    let len = u32::try_from(payload.len())
        .ok()
        .filter(|&n| n <= MAX_FRAME)
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("a frame of {} bytes (at most {MAX_FRAME})", payload.len()),
            )
        })?;
    let mut frame = Vec::with_capacity(4 + payload.len());
    frame.extend_from_slice(&len.to_be_bytes());
    frame.extend_from_slice(payload);
    w.write_all(&frame)?;
    w.flush()
}

fn encode<T: serde::Serialize>(message: &T) -> Vec<u8> {
    let mut payload = VERSION.to_le_bytes().to_vec();
    // Encoding into a vector fails only past the configured limit.
    match bincode::serde::encode_to_vec(message, config()) {
        Ok(body) => payload.extend_from_slice(&body),
        Err(_) => payload.clear(),
    }
    payload
}

/// A request's payload.
pub fn encode_request(request: &Request) -> Vec<u8> {
    encode(request)
}

/// A reply's payload. A reply too large for a frame becomes an error reply
/// saying so.
pub fn encode_reply(reply: &Reply) -> Vec<u8> {
    let payload = encode(reply);
    if payload.len() > 4 && payload.len() <= MAX_FRAME as usize {
        return payload;
    }
    encode(&Reply::Error(ErrorReply {
        kind: ErrorKind::Failed,
        message: format!("the reply is larger than a frame ({MAX_FRAME} bytes)"),
    }))
}

fn decode<T: serde::de::DeserializeOwned>(payload: &[u8], what: &str) -> Result<T, ErrorReply> {
    let malformed = |message: String| ErrorReply {
        kind: ErrorKind::Malformed,
        message,
    };
    let Some((version, body)) = payload.split_first_chunk::<4>() else {
        return Err(malformed(format!(
            "a {what} frame of {} bytes, too short for its version",
            payload.len()
        )));
    };
    let version = u32::from_le_bytes(*version);
    if version != VERSION {
        return Err(ErrorReply {
            kind: ErrorKind::WrongVersion,
            message: format!("protocol version {version}; this side speaks version {VERSION}"),
        });
    }
    let (message, used) = bincode::serde::decode_from_slice::<T, _>(body, config())
        .map_err(|e| malformed(format!("not a {what}: {e}")))?;
    if used != body.len() {
        return Err(malformed(format!(
            "{} bytes after the {what}",
            body.len() - used
        )));
    }
    Ok(message)
}

/// The request in a frame's payload, or the error reply that says why
/// there is none.
pub fn decode_request(payload: &[u8]) -> Result<Request, ErrorReply> {
    decode(payload, "request")
}

/// The reply in a frame's payload.
pub fn decode_reply(payload: &[u8]) -> Result<Reply, ErrorReply> {
    decode(payload, "reply")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::messages::{TracePattern, TraceRequest, TraceTo};

    fn frame(payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        write_frame(&mut out, payload).unwrap();
        out
    }

    #[test]
    fn a_request_survives_the_round_trip() {
        let requests = [
            Request::Hello,
            Request::Info {
                process: "<0.80.0>".into(),
            },
            Request::Load {
                file_name: "m.beam".into(),
                beam: vec![1, 2, 3],
            },
            Request::Trace(TraceRequest {
                flags: vec!["call".into()],
                pids: vec!["all".into()],
                patterns: vec![TracePattern {
                    module: "m".into(),
                    function: "f".into(),
                    arity: Some(1),
                    spec: "true".into(),
                }],
                to: TraceTo::Ring {
                    path: "/tmp/x.ring".into(),
                },
                limit: Some(10),
                rate: None,
                duration_ms: Some(1000),
            }),
            Request::Trace(TraceRequest {
                flags: vec!["send".into()],
                pids: vec!["new".into()],
                patterns: Vec::new(),
                to: TraceTo::Otel {
                    settings: vec![("OTEL_SERVICE_NAME".into(), "svc".into())],
                },
                limit: None,
                rate: Some(100),
                duration_ms: None,
            }),
            Request::TraceStop,
        ];
        for request in requests {
            let bytes = frame(&encode_request(&request));
            let payload = read_frame(&mut bytes.as_slice()).unwrap();
            assert_eq!(decode_request(&payload).unwrap(), request);
        }
    }

    #[test]
    fn a_malformed_body_is_an_error() {
        let mut payload = VERSION.to_le_bytes().to_vec();
        payload.extend_from_slice(&[0xff, 0xff, 0xff]);
        let e = decode_request(&payload).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Malformed);
    }

    #[test]
    fn trailing_bytes_are_an_error() {
        let mut payload = encode_request(&Request::Stats { interval_ms: 1000 });
        payload.push(0);
        let e = decode_request(&payload).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Malformed);
        assert!(e.message.contains("1 bytes after"), "{}", e.message);
    }

    #[test]
    fn a_short_payload_is_an_error() {
        let e = decode_request(&[1, 0]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Malformed);
    }

    #[test]
    fn another_version_is_named() {
        let mut payload = encode_request(&Request::Stats { interval_ms: 1000 });
        payload[..4].copy_from_slice(&(VERSION + 1).to_le_bytes());
        let e = decode_request(&payload).unwrap_err();
        assert_eq!(e.kind, ErrorKind::WrongVersion);
        assert!(e.message.contains(&format!("version {}", VERSION + 1)));
    }

    #[test]
    fn an_oversized_frame_is_refused_before_it_is_read() {
        let bytes = (MAX_FRAME + 1).to_be_bytes();
        match read_frame(&mut bytes.as_slice()) {
            Err(e @ FrameError::Oversized(_)) => {
                assert_eq!(e.reply().unwrap().kind, ErrorKind::Oversized)
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_truncated_frame_is_an_error() {
        let mut bytes = frame(&encode_request(&Request::Ps));
        bytes.pop();
        assert!(matches!(
            read_frame(&mut bytes.as_slice()),
            Err(FrameError::Truncated)
        ));
        // Inside the length too.
        assert!(matches!(
            read_frame(&mut &bytes[..2]),
            Err(FrameError::Truncated)
        ));
        assert!(matches!(read_frame(&mut &[][..]), Err(FrameError::Closed)));
    }

    #[test]
    fn a_length_inside_the_body_cannot_allocate_past_the_frame() {
        // Info { process } with a string length of 2^40 and no bytes.
        let mut payload = VERSION.to_le_bytes().to_vec();
        payload.push(3); // variant Info
        payload.push(253); // u64 length follows
        payload.extend_from_slice(&(1u64 << 40).to_le_bytes());
        let e = decode_request(&payload).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Malformed);
    }

    #[test]
    fn the_reply_decoder_reads_what_the_encoder_writes() {
        let reply = Reply::Purged {
            module: "m".into(),
            killed: false,
        };
        assert_eq!(decode_reply(&encode_reply(&reply)).unwrap(), reply);
    }
}
