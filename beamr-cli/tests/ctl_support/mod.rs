//! Helpers for the `beamr ctl` tests: a `beamr run` of the `ctl_server`
//! fixture with a control directory of its own, killed when dropped, and
//! `beamr ctl` runs against it. With `BEAMR_DIFF_OTP_ROOT=DIR` (a release
//! root, as for the differential suite) the server runs DIR's OTP library.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

#[path = "../support/mod.rs"]
mod support;

/// How long a started server may take to say it is ready.
const READY_WAIT: Duration = Duration::from_secs(60);

/// A fresh, empty control directory for one test.
pub fn ctl_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "beamr-ctl-test-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The beamr binary.
pub fn beamr() -> &'static str {
    env!("CARGO_BIN_EXE_beamr")
}

/// A running `beamr run` of `ctl_server`.
pub struct Server {
    pub child: Child,
    /// Its control directory (`BEAMR_CTL_DIR`).
    pub dir: PathBuf,
    /// The pid the program printed (`<0.N.0>`).
    pub erlang_pid: String,
    /// The atom limit the program printed.
    pub atom_limit: u64,
    /// Its standard output's later lines.
    pub lines: Receiver<String>,
}

impl Server {
    /// Starts the server and waits for its ready line.
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// [`Server::start`] with more `beamr run` options.
    pub fn start_with(options: &[&str]) -> Server {
        Server::start_in(options, None, &[])
    }

    /// [`Server::start_with`] in the directory `cwd`, with more
    /// environment variables.
    pub fn start_in(options: &[&str], cwd: Option<&Path>, envs: &[(&str, &str)]) -> Server {
        let fixtures = support::fixtures("ctl_server");
        let dir = ctl_dir();
        let mut cmd = Command::new(beamr());
        if let Some(cwd) = cwd {
            cmd.current_dir(cwd);
        }
        cmd.envs(envs.iter().copied());
        if let Some(root) = std::env::var_os("BEAMR_DIFF_OTP_ROOT") {
            cmd.env(
                "BEAMR_OTP_ROOT",
                Path::new(&root).join("usr").join("lib").join("erlang"),
            );
        }
        let mut child = cmd
            .args(["run", "-S", "2", "-e", "ctl_server"])
            .args(options)
            .arg(fixtures.join("ctl_server.beam"))
            .arg(fixtures.join("ctl_answer.beam"))
            .env("BEAMR_CTL_DIR", &dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start beamr run");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            dir,
            erlang_pid: String::new(),
            atom_limit: 0,
            lines,
        };
        let line = server
            .lines
            .recv_timeout(READY_WAIT)
            .expect("ctl_server printed no ready line");
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.first(), Some(&"ready"), "{line}");
        server.erlang_pid = words[1].to_string();
        server.atom_limit = words[2].parse().expect("atom limit");
        server
    }

    /// The OS pid.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The socket's path.
    pub fn socket(&self) -> PathBuf {
        self.dir.join(format!("{}.sock", self.pid()))
    }

    /// `beamr ctl PID ARGS...`.
    pub fn ctl(&self, args: &[&str]) -> Output {
        let pid = self.pid().to_string();
        let mut all = vec![pid.as_str()];
        all.extend_from_slice(args);
        ctl(&self.dir, &all)
    }

    /// `beamr ctl PID ARGS...`'s standard output, which must succeed.
    pub fn ctl_ok(&self, args: &[&str]) -> String {
        let out = self.ctl(args);
        assert!(
            out.status.success(),
            "beamr ctl {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf-8")
    }

    /// `beamr ctl PID ARGS... --json`, parsed.
    pub fn ctl_json(&self, args: &[&str]) -> serde_json::Value {
        let mut all = args.to_vec();
        all.push("--json");
        serde_json::from_str(&self.ctl_ok(&all)).expect("json")
    }

    /// `eval EXPR`'s printed value.
    pub fn eval(&self, expr: &str) -> String {
        self.ctl_ok(&["eval", expr]).trim_end().to_string()
    }

    /// Waits at most `within` for the server to exit; its status code.
    pub fn wait_exit(&mut self, within: Duration) -> Option<i32> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        None
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `beamr ctl ARGS...` with `dir` as the control directory, bounded in time.
pub fn ctl(dir: &Path, args: &[&str]) -> Output {
    run_bounded(
        Command::new(beamr())
            .arg("ctl")
            .args(args)
            .env("BEAMR_CTL_DIR", dir),
    )
}

/// Runs `cmd` to its end, killed after a minute.
pub fn run_bounded(cmd: &mut Command) -> Output {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let id = child.id();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(out) => out.expect("output"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &id.to_string()]).status();
            panic!("{cmd:?} ran for over a minute");
        }
    }
}

/// A `beamr ctl PID trace ...` (or `tp ...`) running in the background,
/// its session started; killed when dropped.
pub struct TraceClient {
    pub child: Child,
    /// The session's name, from the started line (`beamr_ctl N`).
    pub session: String,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
}

fn line_channel(from: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(from).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

impl TraceClient {
    /// Starts `beamr ctl PID ARGS...` and waits for its session to start;
    /// panics with its error if it does not.
    pub fn start(server: &Server, args: &[&str]) -> TraceClient {
        TraceClient::start_with_env(server, args, &[])
    }

    /// As [`TraceClient::start`], the client's environment with `envs`.
    pub fn start_with_env(server: &Server, args: &[&str], envs: &[(&str, &str)]) -> TraceClient {
        let mut child = Command::new(beamr())
            .arg("ctl")
            .arg(server.pid().to_string())
            .args(args)
            .envs(envs.iter().copied())
            .env("BEAMR_CTL_DIR", &server.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn beamr ctl");
        let stdout = line_channel(child.stdout.take().expect("stdout"));
        let stderr = line_channel(child.stderr.take().expect("stderr"));
        let first = stderr.recv_timeout(READY_WAIT);
        let Some(session) = first.as_ref().ok().and_then(|l| {
            let rest = l.strip_prefix("beamr ctl: tracing in session ")?;
            Some(rest.split(':').next()?.to_string())
        }) else {
            let _ = child.kill();
            let _ = child.wait();
            panic!("beamr ctl {args:?} did not start tracing: {first:?}");
        };
        TraceClient {
            child,
            session,
            stdout,
            stderr,
        }
    }

    /// The next line of the trace, waiting at most a minute.
    pub fn line(&self) -> String {
        self.stdout
            .recv_timeout(READY_WAIT)
            .expect("no trace line within a minute")
    }

    /// Waits (a minute at most) for the client to end by itself: its exit
    /// code, its remaining trace lines, and its last line on standard
    /// error (`beamr ctl: trace ended ...`).
    pub fn finish(mut self) -> (Option<i32>, Vec<String>, String) {
        let deadline = Instant::now() + READY_WAIT;
        let status = loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                break status;
            }
            assert!(Instant::now() < deadline, "the trace client did not end");
            std::thread::sleep(Duration::from_millis(50));
        };
        // The readers see the pipes' ends once the child is gone.
        let lines: Vec<String> = self.stdout.iter().collect();
        let last = self.stderr.iter().last().unwrap_or_default();
        (status.code(), lines, last)
    }

    /// Kills the client without a word to the server (a detach).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for TraceClient {
    fn drop(&mut self) {
        self.kill();
    }
}

/// True when a `beamr trace dump` of a flight recording has a scheduler's
/// counters with `field` above 0 (`counters.scheduler ... messages=N`
/// for the field `messages`).
pub fn counted(dump: &str, field: &str) -> bool {
    let prefix = format!("{field}=");
    dump.lines()
        .filter(|l| l.contains(" counters.scheduler "))
        .filter_map(|l| {
            l.split_whitespace()
                .find_map(|w| w.strip_prefix(prefix.as_str()))
                .and_then(|n| n.parse::<u64>().ok())
        })
        .any(|n| n > 0)
}
