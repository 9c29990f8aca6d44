//! `beamr ctl` attaches to a runtime started with `beamr erl` (what
//! Gleam's launchers and release scripts start), as to one of `beamr
//! run`: `list` shows it with erl's command line, `eval` and `stop` work
//! on it, and `BEAMR_CTL=off` opens no socket. A flight recorder asked
//! for with `BEAMR_FLIGHT=1` is dumped on request.

mod ctl_support;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The program: a registered process that keeps the system up, then a
/// ready line.
const EVAL: &str = "register(keeper, spawn(fun() -> receive stop -> ok end end)), \
                    io:format(\"ready~n\").";

/// A `beamr erl -noshell -eval EVAL` with a control directory of its own.
struct ErlRuntime {
    child: Child,
    dir: PathBuf,
}

impl ErlRuntime {
    fn start(envs: &[(&str, &str)]) -> ErlRuntime {
        let dir = ctl_support::ctl_dir();
        let mut cmd = Command::new(ctl_support::beamr());
        if let Some(root) = std::env::var_os("BEAMR_DIFF_OTP_ROOT") {
            cmd.env(
                "BEAMR_OTP_ROOT",
                Path::new(&root).join("usr").join("lib").join("erlang"),
            );
        }
        let mut child = cmd
            .args(["erl", "-noshell", "-eval", EVAL])
            .envs(envs.iter().copied())
            .env("BEAMR_CTL_DIR", &dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start beamr erl");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line, "ready\n");
        ErlRuntime { child, dir }
    }

    fn ctl(&self, args: &[&str]) -> std::process::Output {
        let pid = self.child.id().to_string();
        let mut all = vec![pid.as_str()];
        all.extend_from_slice(args);
        ctl_support::ctl(&self.dir, &all)
    }

    fn socket(&self) -> PathBuf {
        self.dir.join(format!("{}.sock", self.child.id()))
    }
}

impl Drop for ErlRuntime {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn text(out: &std::process::Output) -> String {
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout).trim_end().to_string()
}

#[test]
fn ctl_attaches_to_beamr_erl_and_stops_it() {
    let mut erl = ErlRuntime::start(&[]);
    let list = ctl_support::ctl(&erl.dir, &["list", "--json"]);
    let list: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    let entries = list.as_array().unwrap();
    assert_eq!(entries.len(), 1, "{list}");
    assert_eq!(entries[0]["os_pid"], erl.child.id());
    assert_eq!(
        entries[0]["program"].as_str().unwrap(),
        format!("erl -noshell -eval {EVAL}")
    );
    assert_eq!(text(&erl.ctl(&["eval", "is_pid(whereis(keeper))"])), "true");
    assert_eq!(
        text(&erl.ctl(&["eval", "init:get_argument(noshell)"])),
        "{ok,[[]]}"
    );
    text(&erl.ctl(&["stop"]));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = erl.child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "no stop");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert_eq!(status.code(), Some(0));
    assert!(!erl.socket().exists());
}

#[test]
fn beamr_ctl_off_opens_no_socket() {
    let erl = ErlRuntime::start(&[("BEAMR_CTL", "off")]);
    assert!(!erl.socket().exists());
    let out = erl.ctl(&["stats"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_flight_recorder_asked_for_by_the_environment_dumps_on_request() {
    let erl = ErlRuntime::start(&[("BEAMR_FLIGHT", "1")]);
    let file = erl.dir.with_extension("ring");
    text(&erl.ctl(&["flight", "dump", file.to_str().unwrap()]));
    let dump = Command::new(ctl_support::beamr())
        .args(["trace", "dump"])
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    assert!(dump.status.success(), "{dump:?}");
    let events = String::from_utf8_lossy(&dump.stdout);
    assert!(events.contains("spawn"), "{events}");
}
