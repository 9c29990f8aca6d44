//! A `SIGTERM` stops a running program cleanly, as on erl: kernel's
//! `erl_signal_handler` logs "SIGTERM received - shutting down" and calls
//! `init:stop()`, and the OS process exits 0. The program here waits
//! forever after printing a line; it is sent `SIGTERM` once that line is
//! out, on `erl -noshell` and on `beamr run`, and what each printed (the
//! report's time masked) and its exit status must be the same.
//!
//! It runs on the host's OTP and on each release root `cargo xtask
//! test-all` made under `target/otp/` (27, 29), as `halt_slogan` does.

mod release_roots;

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use release_roots::{otp_root_env, releases, shell, work_dir};

const PROGRAM: &str = r#"-module(waiting).
-export([main/0]).
main() ->
    io:format("ready~n"),
    receive after infinity -> ok end.
"#;

/// How long a run may take to print its first line, and then to stop
/// once signalled, before the test gives up on it (and kills it).
const PATIENCE: Duration = Duration::from_secs(60);

/// What a run printed and how it ended (1000 plus the signal that ended
/// it, if one did).
#[derive(Debug, PartialEq)]
struct Outcome {
    stdout: String,
    status: i32,
}

/// Starts `command` in `inner` (inside `root` when given), waits for its
/// first line, sends it `SIGTERM` and collects what it printed.
fn run_and_terminate(root: Option<&Path>, inner: &Path, env: &str, command: &str) -> Outcome {
    let line = format!(
        "cd {} && exec env HOME=/tmp {env} {command}",
        inner.display()
    );
    let mut child = shell(root, &line)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("sh runs");
    let stdout = child.stdout.take().expect("piped stdout");
    let (lines, got) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut first = String::new();
        let _ = reader.read_line(&mut first);
        let _ = lines.send(());
        let mut rest = String::new();
        let _ = reader.read_to_string(&mut rest);
        first + &rest
    });
    if got.recv_timeout(PATIENCE).is_err() {
        kill(&mut child);
        panic!("{command}: no first line within {PATIENCE:?}");
    }
    let signalled = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(signalled.success(), "kill -TERM {}", child.id());
    let status = wait_bounded(&mut child, command);
    let stdout = reader.join().expect("reader thread");
    Outcome {
        stdout: mask_times(&stdout),
        status,
    }
}

/// The exit status of `child`, killed if it takes longer than [`PATIENCE`].
fn wait_bounded(child: &mut Child, command: &str) -> i32 {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code().or(status.signal().map(|s| 1000 + s)).unwrap();
        }
        if std::time::Instant::now() > deadline {
            kill(child);
            panic!("{command}: still running {PATIENCE:?} after SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// The report header's date and time (`=INFO REPORT==== 2-Dec-2026::02:15:15.545337 ===`).
fn mask_times(text: &str) -> String {
    text.lines()
        .map(|l| match l.strip_prefix("=INFO REPORT==== ") {
            Some(_) => "=INFO REPORT==== TIME ===",
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn sigterm_stops_the_program_as_on_erl() {
    let beamr = PathBuf::from(env!("CARGO_BIN_EXE_beamr"));
    for root in releases() {
        let root = root.as_deref();
        let (dir, inner) = work_dir(root, "beamr-sigterm");
        std::fs::write(dir.join("waiting.erl"), PROGRAM).unwrap();
        let compiled = shell(root, &format!("cd {} && erlc waiting.erl", inner.display()))
            .status()
            .expect("sh runs");
        assert!(compiled.success(), "erlc in {root:?}");
        let erl = run_and_terminate(root, &inner, "", "erl -noshell -s waiting main");
        let ours = run_and_terminate(
            None,
            &dir,
            &otp_root_env(root),
            &format!("{} run -e waiting .", beamr.display()),
        );
        assert_eq!(erl.status, 0, "erl ({root:?}): {erl:?}");
        assert!(
            erl.stdout.contains("SIGTERM received - shutting down"),
            "erl ({root:?}): {erl:?}"
        );
        assert_eq!(ours, erl, "{root:?}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
