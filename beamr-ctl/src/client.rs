//! The client side: connecting to a runtime's socket, one request and its
//! reply at a time, and finding this user's runtimes.

use std::os::unix::net::UnixStream;
use std::path::Path;
use std::time::Duration;

use crate::protocol::framing::decode_reply;
use crate::protocol::{encode_request, read_frame, write_frame, Reply, Request, RuntimeInfo};
use crate::socket_dir;

/// How long a client waits for a reply (the server's own requests time
/// out first, see [`crate::agent::TIMEOUT`]).
pub const REPLY_TIMEOUT: Duration = Duration::from_secs(30);

/// A connection to one runtime.
pub struct Client {
    stream: UnixStream,
}

impl Client {
    /// Connects to the runtime in OS process `pid` (of this user's socket
    /// directory). A stale socket is removed, never connected to.
    pub fn connect(pid: u32) -> Result<Client, String> {
        let dir = socket_dir::dir();
        let path = socket_dir::socket_path(&dir, pid);
        if !socket_dir::is_alive(pid) {
            let _ = std::fs::remove_file(&path);
            return Err(format!("no beamr runtime with pid {pid}"));
        }
        if !path.exists() {
            return Err(format!(
                "pid {pid} has no control socket in {} (not a beamr run of this user, or run with --no-ctl)",
                dir.display()
            ));
        }
        Client::connect_path(&path)
    }

    /// Connects to the socket at `path`.
    pub fn connect_path(path: &Path) -> Result<Client, String> {
        let stream = UnixStream::connect(path)
            .map_err(|e| format!("cannot connect to {}: {e}", path.display()))?;
        stream
            .set_read_timeout(Some(REPLY_TIMEOUT))
            .and_then(|()| stream.set_write_timeout(Some(REPLY_TIMEOUT)))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(Client { stream })
    }

    /// Sends `request` and reads its reply.
    pub fn request(&mut self, request: &Request) -> Result<Reply, String> {
        if let Err(e) = write_frame(&mut self.stream, &encode_request(request)) {
            // A server that refuses the connection says why before it
            // closes it: that reply, if there is one, is the answer.
            return self
                .reply()
                .map_err(|_| format!("cannot send the request: {e}"));
        }
        self.reply()
    }

    /// Reads one reply.
    pub fn reply(&mut self) -> Result<Reply, String> {
        let payload = read_frame(&mut self.stream).map_err(|e| format!("no reply: {e}"))?;
        decode_reply(&payload)
            .map_err(|e| format!("a reply this client cannot read: {}", e.message))
    }

    /// Sets how long [`Client::reply`] waits (`None`: as long as it takes,
    /// for a trace, whose replies come when events do).
    pub fn set_reply_timeout(&mut self, timeout: Option<Duration>) -> Result<(), String> {
        self.stream
            .set_read_timeout(timeout)
            .map_err(|e| format!("cannot set the reply timeout: {e}"))
    }

    /// The underlying stream (for sending raw frames).
    pub fn stream(&mut self) -> &mut UnixStream {
        &mut self.stream
    }
}

/// This user's runtimes: each live socket's `Hello`, or why it gave none.
pub fn list() -> Vec<(u32, Result<RuntimeInfo, String>)> {
    socket_dir::live_sockets(&socket_dir::dir())
        .into_iter()
        .map(|(pid, path)| {
            let info =
                Client::connect_path(&path).and_then(|mut c| match c.request(&Request::Hello)? {
                    Reply::Hello(info) => Ok(info),
                    Reply::Error(e) => Err(e.message),
                    other => Err(format!("unexpected reply {other:?}")),
                });
            (pid, info)
        })
        .collect()
}
