//! A [`Request::Trace`] on one connection: the session's replies stream
//! until it ends (step 3 of [`crate::trace`]).
//!
//! Every [`TICK`] the loop sends the lines that came (a text trace), then
//! looks at the connection without waiting: its end (the client detached:
//! Ctrl-C, a crash) or a [`Request::TraceStop`] ends the session; so do
//! the duration, the limit, and another client's `TraceStop`
//! ([`crate::trace::registry`]). The session always ends before the loop
//! returns.

use std::os::fd::AsRawFd;
use std::os::unix::net::UnixStream;
use std::time::{Duration, Instant};

use beamr_sched::runtime::Runtime;
use nix::errno::Errno;
use nix::sys::socket::{recv, MsgFlags};

use crate::protocol::{
    decode_request, encode_reply, read_frame, write_frame, ErrorKind, ErrorReply, Reply, Request,
    TraceRequest,
};
use crate::trace::{self, registry, ActiveTrace};

/// How often the loop looks at the connection and the clocks.
pub const TICK: Duration = Duration::from_millis(100);

/// Lines sent in one [`Reply::TraceLines`] at most.
const BATCH: usize = 512;

/// Why a session ended.
enum End {
    /// The client's connection ended: nothing more is sent.
    Detached,
    /// Anything else, told to the client.
    Said(&'static str),
}

fn send(stream: &mut UnixStream, reply: &Reply) -> bool {
    write_frame(stream, &encode_reply(reply)).is_ok()
}

/// Serves `request`; false when the connection is over.
pub fn serve(stream: &mut UnixStream, rt: &Runtime, request: &TraceRequest) -> bool {
    let active = match trace::start(rt, request) {
        Ok(active) => active,
        Err(message) => {
            return send(
                stream,
                &Reply::Error(ErrorReply {
                    kind: ErrorKind::Failed,
                    message,
                }),
            )
        }
    };
    let registered = registry::register();
    let started = send(
        stream,
        &Reply::TraceStarted {
            session: active.name(),
            processes: active.processes,
            functions: active.functions,
        },
    );
    let end = if started {
        let deadline = request
            .duration_ms
            .map(|ms| Instant::now() + Duration::from_millis(ms));
        watch(stream, &active, &registered, deadline)
    } else {
        End::Detached
    };
    let ended = active.end(rt);
    drop(registered);
    match end {
        End::Detached => false,
        End::Said(reason) => {
            let reason = match ended {
                Ok(()) => reason.to_string(),
                Err(e) => format!("{reason}; {e}"),
            };
            // The lines recorded before the end.
            if !flush_lines(stream, &active) {
                return false;
            }
            send(
                stream,
                &Reply::TraceEnded {
                    reason,
                    events: active.recorded(),
                    dropped: active.dropped(),
                },
            )
        }
    }
}

/// Sends what lines there are; false when the client is gone.
fn flush_lines(stream: &mut UnixStream, active: &ActiveTrace) -> bool {
    let Some(lines) = active.lines() else {
        return true;
    };
    loop {
        let batch: Vec<String> = lines.try_iter().take(BATCH).collect();
        if batch.is_empty() {
            return true;
        }
        if !send(stream, &Reply::TraceLines(batch)) {
            return false;
        }
    }
}

/// Waits for one tick: for the first line of a text trace, or the tick.
fn tick(active: &ActiveTrace) -> Option<String> {
    match active.lines() {
        Some(lines) => lines.recv_timeout(TICK).ok(),
        None => {
            std::thread::sleep(TICK);
            None
        }
    }
}

fn watch(
    stream: &mut UnixStream,
    active: &ActiveTrace,
    registered: &registry::Registered,
    deadline: Option<Instant>,
) -> End {
    loop {
        if let Some(first) = tick(active) {
            if !send(stream, &Reply::TraceLines(vec![first])) || !flush_lines(stream, active) {
                return End::Detached;
            }
        }
        match client_said(stream) {
            Said::Nothing => {}
            Said::Gone => return End::Detached,
            Said::Stop => return End::Said("stopped"),
            Said::Other => {
                let refused = Reply::Error(ErrorReply {
                    kind: ErrorKind::Failed,
                    message: "this connection is tracing: only TraceStop is read".into(),
                });
                if !send(stream, &refused) {
                    return End::Detached;
                }
            }
        }
        if registered.stop_asked() {
            return End::Said("stopped");
        }
        if active.limit_reached() {
            return End::Said("limit");
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return End::Said("duration");
        }
    }
}

/// What the client sent while its session ran.
enum Said {
    Nothing,
    Gone,
    Stop,
    Other,
}

/// Looks at the connection without waiting; a frame that has begun is read
/// whole (within the connection's read timeout).
fn client_said(stream: &mut UnixStream) -> Said {
    let mut byte = [0u8];
    let flags = MsgFlags::MSG_PEEK | MsgFlags::MSG_DONTWAIT;
    match recv(stream.as_raw_fd(), &mut byte, flags) {
        Ok(0) => Said::Gone,
        Ok(_) => match read_frame(stream) {
            Ok(payload) => match decode_request(&payload) {
                Ok(Request::TraceStop) => Said::Stop,
                _ => Said::Other,
            },
            Err(_) => Said::Gone,
        },
        Err(Errno::EAGAIN | Errno::EINTR) => Said::Nothing,
        Err(_) => Said::Gone,
    }
}
