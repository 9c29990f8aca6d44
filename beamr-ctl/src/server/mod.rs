//! The control server: a listener thread of its own, off the schedulers,
//! and a thread per connected client.
//!
//! 1. [`start`] makes the socket directory private (0700, see
//!    [`crate::socket_dir`]), removes the stale sockets in it, binds
//!    `PID.sock`, makes it 0600, and registers its removal with the
//!    runtime's halt ([`beamr_sched::runtime::at_halt`]) and with the
//!    returned [`Server`]'s drop.
//! 2. The listener thread blocks in `accept`: until a client connects the
//!    runtime pays nothing for it.
//! 3. Each connection gets a thread ([`session`]) that checks the peer's
//!    credentials (`SO_PEERCRED`) against this process's user, then
//!    answers requests until the client goes, says nothing for
//!    [`session::READ_TIMEOUT`], or sends a frame it cannot follow.
//!    At most [`MAX_CLIENTS`] are served at once; the next is refused.
//!    A trace request streams its replies until its session ends
//!    ([`trace_stream`]).

pub mod session;
pub mod trace_stream;

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use beamr_sched::runtime::Runtime;

use crate::socket_dir;

/// Clients served at once.
pub const MAX_CLIENTS: usize = 16;

/// The setting that turns the control socket off (`off`, `0` or
/// `false`): for `beamr erl`, whose command line is erl's, as `--no-ctl`
/// is for `beamr run`.
pub const ENV: &str = "BEAMR_CTL";

/// True when [`ENV`] turns the control socket off.
pub fn off_by_env() -> bool {
    std::env::var(ENV).is_ok_and(|v| matches!(v.as_str(), "off" | "0" | "false"))
}

/// A listening control socket; dropping it removes the socket's file.
pub struct Server {
    path: PathBuf,
}

impl Server {
    /// The socket's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Starts serving `rt` on this user's socket directory; `program` is what
/// `beamr ctl list` shows the runtime runs.
pub fn start(rt: Arc<Runtime>, program: String) -> io::Result<Server> {
    start_in(&socket_dir::dir(), rt, program)
}

/// [`start`] in the directory `dir`.
pub fn start_in(dir: &Path, rt: Arc<Runtime>, program: String) -> io::Result<Server> {
    socket_dir::ensure_private(dir)?;
    socket_dir::remove_stale(dir);
    let path = socket_dir::socket_path(dir, std::process::id());
    // A file of this pid is a previous process's that had this pid.
    match std::fs::remove_file(&path) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    let listener = UnixListener::bind(&path)?;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))?;
    let removed = path.clone();
    beamr_sched::runtime::at_halt::register(move |_| {
        let _ = std::fs::remove_file(&removed);
    });
    let program = Arc::new(program);
    std::thread::Builder::new()
        .name("beamr-ctl".into())
        .spawn(move || listen(&listener, &rt, &program))?;
    Ok(Server { path })
}

fn listen(listener: &UnixListener, rt: &Arc<Runtime>, program: &Arc<String>) {
    let clients = Arc::new(AtomicUsize::new(0));
    for stream in listener.incoming() {
        let Ok(stream) = stream else {
            continue;
        };
        if clients.fetch_add(1, Ordering::AcqRel) >= MAX_CLIENTS {
            clients.fetch_sub(1, Ordering::AcqRel);
            session::refuse_busy(stream);
            continue;
        }
        let (rt, program, clients) = (rt.clone(), program.clone(), clients.clone());
        let spawned = std::thread::Builder::new()
            .name("beamr-ctl-client".into())
            .spawn(move || {
                session::serve(stream, &rt, &program);
                clients.fetch_sub(1, Ordering::AcqRel);
            });
        if spawned.is_err() {
            // The stream went with the closure: the client sees the
            // connection close.
            continue;
        }
    }
}
