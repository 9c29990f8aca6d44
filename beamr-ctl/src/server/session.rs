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
pub fn serve(mut stream: UnixStream, rt: &Runtime, program: &str) {
    if stream.set_read_timeout(Some(READ_TIMEOUT)).is_err()
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
        Request::Stats => gather::stats::stats(rt),
        Request::Ps => gather::ps::ps(rt),
        Request::Info { process } => gather::info::info(rt, &process),
        Request::Eval { expr } => gather::eval::eval(rt, &expr),
        Request::Load { file_name, beam } => gather::code::load(rt, &file_name, &beam),
        Request::Purge { module } => gather::code::purge(rt, &module),
        Request::Stop if crate::agent::runtime_ready(rt) => Reply::Stopping,
        Request::Stop => gather::failed("the runtime is still starting; try again"),
    }
}
