//! Running programs on the host's OTP and on each release root `cargo
//! xtask test-all` made under `target/otp/` (27, 29), through `chroot`,
//! for the integration tests that compare erl and beamr outside the
//! differential suite (`fd_ports`, `halt_slogan`, `process_memory`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The release roots that exist, after the host (`None`).
pub fn releases() -> Vec<Option<PathBuf>> {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut all = vec![None];
    for release in ["27", "29"] {
        let root = workspace.join("target/otp").join(release);
        if root.join("usr/lib/erlang").is_dir() {
            all.push(Some(root));
        }
    }
    all
}

/// A fresh directory `/tmp/NAME-PID` inside `root` (or on the host):
/// `(as seen from here, as seen inside the root)`.
pub fn work_dir(root: Option<&Path>, name: &str) -> (PathBuf, PathBuf) {
    let inner = PathBuf::from(format!("/tmp/{name}-{}", std::process::id()));
    let dir = match root {
        Some(root) => root.join(inner.strip_prefix("/").unwrap()),
        None => inner.clone(),
    };
    std::fs::create_dir_all(&dir).unwrap();
    (dir, inner)
}

/// `sh -c LINE`, inside `root` when given.
pub fn shell(root: Option<&Path>, line: &str) -> Command {
    let mut cmd = match root {
        Some(root) => {
            let mut c = Command::new("chroot");
            c.arg(root).arg("sh");
            c
        }
        None => Command::new("sh"),
    };
    cmd.arg("-c").arg(line);
    cmd
}

/// Runs `sh -c LINE` (inside `root` when given) as the erl-against-beamr
/// tests run a program: `HOME` is `/tmp` and no crash dump waits.
// Each test binary includes this module; not all of them run lines.
#[allow(dead_code)]
pub fn run_line(root: Option<&Path>, line: &str) -> Output {
    shell(root, line)
        .env("HOME", "/tmp")
        .env("ERL_CRASH_DUMP_SECONDS", "0")
        .output()
        .expect("sh runs")
}

/// `BEAMR_OTP_ROOT=...` for beamr to run on `root`'s library (nothing on
/// the host's), as a word for a shell line.
pub fn otp_root_env(root: Option<&Path>) -> String {
    match root {
        Some(root) => format!("BEAMR_OTP_ROOT={}/usr/lib/erlang", root.display()),
        None => String::new(),
    }
}
