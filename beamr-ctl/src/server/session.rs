//! One client's connection: the peer check, then requests and replies
//! until the client goes (see [`crate::protocol`] for what each side may
//! send).

use std::os::unix::net::UnixStream;
use std::time::Duration;

use beamr_sched::runtime::Runtime;
use nix::sys::socket::{getsockopt, sockopt::PeerCredentials};
use nix::unistd::Uid;

use crate::gather;
use crate::protocol::{
    decode_request, encode_reply, read_frame, write_frame, ErrorKind, ErrorReply, Reply, Request,
};

/// How long a client may stay silent, between requests or inside one.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);

/// How long writing a reply may take.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

fn send(stream: &mut UnixStream, reply: &Reply) -> bool {
    write_frame(stream, &encode_reply(reply)).is_ok()
}

fn error(kind: ErrorKind, message: String) -> Reply {
    Reply::Error(ErrorReply { kind, message })
}

/// Whether the peer runs as this process's user.
fn same_user(stream: &UnixStream) -> Result<(), String> {
    let creds = getsockopt(stream, PeerCredentials)
        .map_err(|e| format!("cannot read the peer's credentials: {e}"))?;
    let own = Uid::effective().as_raw();
    if creds.uid() != own {
        return Err(format!(
            "refused: the client runs as uid {}, this runtime as uid {own}",
            creds.uid()
        ));
    }
    Ok(())
}

/// Tells a client over [`super::MAX_CLIENTS`] why it is not served.
pub fn refuse_busy(mut stream: UnixStream) {
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    send(
        &mut stream,
        &error(
            ErrorKind::Refused,
            format!("{} clients are served already", super::MAX_CLIENTS),
        ),
    );
}

/// Serves one client until it goes.
pub fn serve(stream: UnixStream, rt: &Runtime, program: &str) {
    serve_with(stream, rt, program, READ_TIMEOUT);
}

/// [`serve`] with `read_timeout` in place of [`READ_TIMEOUT`].
pub fn serve_with(mut stream: UnixStream, rt: &Runtime, program: &str, read_timeout: Duration) {
    if stream.set_read_timeout(Some(read_timeout)).is_err()
        || stream.set_write_timeout(Some(WRITE_TIMEOUT)).is_err()
    {
        return;
    }
    if let Err(message) = same_user(&stream) {
        send(&mut stream, &error(ErrorKind::Refused, message));
        return;
    }
    loop {
        let payload = match read_frame(&mut stream) {
            Ok(payload) => payload,
            Err(e) => {
                // After a frame it cannot follow the server cannot tell
                // where the next one starts: it answers and closes.
                if let Some(reply) = e.reply() {
                    send(&mut stream, &Reply::Error(reply));
                }
                return;
            }
        };
        let request = match decode_request(&payload) {
            Ok(request) => request,
            Err(reply) => {
                // The frame was whole: the next one can be read.
                if !send(&mut stream, &Reply::Error(reply)) {
                    return;
                }
                continue;
            }
        };
        if let Request::Trace(trace) = &request {
            if !super::trace_stream::serve(&mut stream, rt, trace) {
                return;
            }
            continue;
        }
        let stop = request == Request::Stop;
        let reply = answer(rt, program, request);
        let sent = send(&mut stream, &reply);
        if stop && matches!(reply, Reply::Stopping) {
            if let Err(e) = gather::stop::stop(rt) {
                eprintln!("beamr ctl: stop: {e}");
            }
            return;
        }
        if !sent {
            return;
        }
    }
}

/// The reply to one request.
pub fn answer(rt: &Runtime, program: &str, request: Request) -> Reply {
    match request {
        Request::Hello => gather::hello::hello(rt, program),
        Request::Stats { interval_ms } => gather::stats::stats(rt, interval_ms),
        Request::Ps => gather::ps::ps(rt),
        Request::Info { process } => gather::info::info(rt, &process),
        Request::State {
            process,
            timeout_ms,
        } => gather::state::state(rt, &process, timeout_ms),
        Request::Eval { expr } => gather::eval::eval(rt, &expr),
        Request::Load { file_name, beam } => gather::code::load(rt, &file_name, &beam),
        Request::Purge { module } => gather::code::purge(rt, &module),
        Request::Stop if crate::agent::runtime_ready(rt) => Reply::Stopping,
        Request::Stop => gather::failed("the runtime is still starting; try again"),
        Request::TraceStop => Reply::TraceStopped {
            sessions: crate::trace::registry::stop_all(),
        },
        Request::FlightDump { path } => match crate::flight::global() {
            Some(flight) => match flight.dump(std::path::Path::new(&path)) {
                Ok(bytes) => Reply::FlightDumped { path, bytes },
                Err(e) => gather::failed(e),
            },
            None => gather::failed(
                "this runtime has no flight recorder (run it with --flight or BEAMR_FLIGHT=1)",
            ),
        },
        Request::Trace(_) => gather::failed("a trace streams its replies on its connection"),
    }
}

#[cfg(test)]
mod tests {
    use std::io::{Read, Write};
    use std::sync::Arc;
    use std::thread::JoinHandle;

    use beamr_sched::code::CodePath;

    use super::*;
    use crate::protocol::framing::{decode_reply, MAX_FRAME};
    use crate::protocol::{encode_request, VERSION};

    /// A session on one end of a socket pair, on a thread; the other end.
    fn session(timeout: Duration) -> (UnixStream, JoinHandle<()>) {
        let (client, server) = UnixStream::pair().unwrap();
        client
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let rt = Arc::new(Runtime::new(CodePath::new()));
        let thread = std::thread::spawn(move || serve_with(server, &rt, "test:main", timeout));
        (client, thread)
    }

    fn reply(client: &mut UnixStream) -> Reply {
        decode_reply(&read_frame(client).unwrap()).unwrap()
    }

    fn kind(reply: &Reply) -> Option<ErrorKind> {
        match reply {
            Reply::Error(e) => Some(e.kind),
            _ => None,
        }
    }

    fn hello_works(client: &mut UnixStream) {
        write_frame(client, &encode_request(&Request::Hello)).unwrap();
        match reply(client) {
            Reply::Hello(info) => assert_eq!(info.program, "test:main"),
            other => panic!("{other:?}"),
        }
    }

    /// The connection is closed: the next read sees its end.
    fn closed(client: &mut UnixStream) {
        let mut rest = Vec::new();
        client.read_to_end(&mut rest).unwrap();
        assert!(rest.is_empty());
    }

    #[test]
    fn a_malformed_request_is_answered_and_the_session_goes_on() {
        let (mut client, thread) = session(READ_TIMEOUT);
        let mut payload = VERSION.to_le_bytes().to_vec();
        payload.extend_from_slice(&[0xee; 7]);
        write_frame(&mut client, &payload).unwrap();
        assert_eq!(kind(&reply(&mut client)), Some(ErrorKind::Malformed));
        hello_works(&mut client);
        drop(client);
        thread.join().unwrap();
    }

    #[test]
    fn a_request_of_another_version_is_answered_and_the_session_goes_on() {
        let (mut client, thread) = session(READ_TIMEOUT);
        let mut payload = encode_request(&Request::Hello);
        payload[..4].copy_from_slice(&99u32.to_le_bytes());
        write_frame(&mut client, &payload).unwrap();
        match reply(&mut client) {
            Reply::Error(e) => {
                assert_eq!(e.kind, ErrorKind::WrongVersion);
                assert!(e.message.contains("99"), "{}", e.message);
            }
            other => panic!("{other:?}"),
        }
        hello_works(&mut client);
        drop(client);
        thread.join().unwrap();
    }

    #[test]
    fn an_oversized_frame_is_answered_and_closed() {
        let (mut client, thread) = session(READ_TIMEOUT);
        client.write_all(&(MAX_FRAME + 1).to_be_bytes()).unwrap();
        assert_eq!(kind(&reply(&mut client)), Some(ErrorKind::Oversized));
        closed(&mut client);
        thread.join().unwrap();
    }

    #[test]
    fn a_truncated_frame_is_answered_and_closed() {
        let (mut client, thread) = session(READ_TIMEOUT);
        let payload = encode_request(&Request::Hello);
        client
            .write_all(&(payload.len() as u32 + 10).to_be_bytes())
            .unwrap();
        client.write_all(&payload).unwrap();
        client.shutdown(std::net::Shutdown::Write).unwrap();
        assert_eq!(kind(&reply(&mut client)), Some(ErrorKind::Truncated));
        closed(&mut client);
        thread.join().unwrap();
    }

    #[test]
    fn a_silent_client_is_answered_and_closed_after_the_timeout() {
        let (mut client, thread) = session(Duration::from_millis(200));
        // Half a length, then nothing.
        client.write_all(&[0, 0]).unwrap();
        match reply(&mut client) {
            Reply::Error(e) => {
                assert_eq!(e.kind, ErrorKind::Truncated);
                assert!(e.message.contains("timeout"), "{}", e.message);
            }
            other => panic!("{other:?}"),
        }
        closed(&mut client);
        thread.join().unwrap();
    }

    #[test]
    fn a_client_of_this_user_passes_the_peer_check() {
        let (client, server) = UnixStream::pair().unwrap();
        assert!(same_user(&server).is_ok());
        drop(client);
    }
}
