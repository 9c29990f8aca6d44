//! Where control sockets live: one private directory per user, one socket
//! per runtime, named by its OS pid.
//!
//! ```text
//! $BEAMR_CTL_DIR, else $XDG_RUNTIME_DIR/beamr/, else /tmp/beamr-UID/   (0700, owned by UID)
//!     PID.sock                                                          (0600)
//! ```
//!
//! A socket whose pid is no live process is stale (its runtime was killed
//! before it could remove it): [`remove_stale`] deletes it without ever
//! connecting to it.

use std::fs;
use std::io;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use nix::errno::Errno;
use nix::unistd::{Pid, Uid};

/// The environment variable that names the directory in place of the
/// default (tests, and several users of one runtime directory).
pub const DIR_VAR: &str = "BEAMR_CTL_DIR";

/// The directory of this user's control sockets.
pub fn dir() -> PathBuf {
    if let Some(d) = std::env::var_os(DIR_VAR).filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    if let Some(d) = std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        return Path::new(&d).join("beamr");
    }
    PathBuf::from(format!("/tmp/beamr-{}", Uid::effective()))
}

/// The socket of the runtime in OS process `pid`.
pub fn socket_path(dir: &Path, pid: u32) -> PathBuf {
    dir.join(format!("{pid}.sock"))
}

/// Makes `dir` (mode 0700) if missing; refuses one owned by another user
/// or open to others, which would let them reach the sockets.
pub fn ensure_private(dir: &Path) -> io::Result<()> {
    match fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
    {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e),
    }
    let meta = fs::symlink_metadata(dir)?;
    if !meta.is_dir() {
        return Err(io::Error::other(format!(
            "{} is not a directory",
            dir.display()
        )));
    }
    if meta.uid() != Uid::effective().as_raw() {
        return Err(io::Error::other(format!(
            "{} belongs to uid {}, not to this user",
            dir.display(),
            meta.uid()
        )));
    }
    if meta.mode() & 0o077 != 0 {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

/// The OS pid a socket's file name gives, if it is `PID.sock`.
pub fn pid_of(path: &Path) -> Option<u32> {
    if path.extension()? != "sock" {
        return None;
    }
    path.file_stem()?.to_str()?.parse().ok()
}

/// Whether OS process `pid` exists (a process of another user counts).
pub fn is_alive(pid: u32) -> bool {
    let Ok(raw) = i32::try_from(pid) else {
        return false;
    };
    if raw <= 0 {
        return false;
    }
    match nix::sys::signal::kill(Pid::from_raw(raw), None) {
        Ok(()) => true,
        Err(e) => e != Errno::ESRCH,
    }
}

/// The sockets in `dir` whose runtimes are alive, by pid; stale ones are
/// removed on the way (never connected to).
pub fn live_sockets(dir: &Path) -> Vec<(u32, PathBuf)> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut live: Vec<(u32, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter_map(|p| Some((pid_of(&p)?, p)))
        .filter(|(pid, path)| {
            if is_alive(*pid) {
                return true;
            }
            let _ = fs::remove_file(path);
            false
        })
        .collect();
    live.sort();
    live
}

/// Removes the stale sockets in `dir` (see [`live_sockets`]).
pub fn remove_stale(dir: &Path) {
    live_sockets(dir);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_socket_name_gives_its_pid() {
        assert_eq!(pid_of(Path::new("/x/123.sock")), Some(123));
        assert_eq!(pid_of(Path::new("/x/123.txt")), None);
        assert_eq!(pid_of(Path::new("/x/abc.sock")), None);
    }

    #[test]
    fn this_process_is_alive() {
        assert!(is_alive(std::process::id()));
        assert!(!is_alive(0));
    }

    #[test]
    fn a_stale_socket_is_removed_and_a_live_one_kept() {
        let dir = std::env::temp_dir().join(format!("beamr-ctl-test-{}", std::process::id()));
        ensure_private(&dir).unwrap();
        let mode = fs::metadata(&dir).unwrap().mode() & 0o777;
        assert_eq!(mode, 0o700);
        // A child that has exited: its pid is no live process.
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let dead = child.id();
        child.wait().unwrap();
        let stale = socket_path(&dir, dead);
        let live = socket_path(&dir, std::process::id());
        fs::write(&stale, b"").unwrap();
        fs::write(&live, b"").unwrap();
        let found = live_sockets(&dir);
        assert_eq!(found, vec![(std::process::id(), live.clone())]);
        assert!(!stale.exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
