//! The flight recorder: `beamr run --flight` (or `BEAMR_FLIGHT=1`) records
//! process lifecycle and GC as events, and messages and scheduling as
//! counters, all the time;
//! `beamr ctl PID flight dump FILE` writes a file `beamr trace` reads; the
//! runtime dumps by itself on SIGUSR2, on a halt with an error, when the
//! program crashes and when a supervisor gives up (`beamr-flight-PID.ring`
//! in its current directory).

mod ctl_support;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use ctl_support::Server;

fn beamr_trace(args: &[&str], file: &Path) -> String {
    let out = ctl_support::run_bounded(Command::new(ctl_support::beamr()).args(args).arg(file));
    assert!(
        out.status.success(),
        "beamr {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The server's life is in the dump: its main process spawned its
/// helpers (`spawned` events naming it as their parent), the schedulers'
/// counters saw messages, time slices, reductions and normal exits, and
/// collections were recorded.
fn assert_recorded(server: &Server, file: &Path) {
    let dump = beamr_trace(&["trace", "dump"], file);
    let main = &server.erlang_pid;
    assert!(
        dump.lines()
            .any(|l| l.contains(" spawned ") && l.contains(&format!("parent {main} "))),
        "{dump}"
    );
    for field in ["messages", "slices", "reductions", "normal_exits"] {
        assert!(ctl_support::counted(&dump, field), "{field}: {dump}");
    }
    let stats = beamr_trace(&["trace", "stats"], file);
    for kind in ["spawned ", "counters.scheduler ", "gc_minor_start "] {
        assert!(
            stats.lines().any(|l| l.starts_with(kind)),
            "{kind}: {stats}"
        );
    }
}

fn wait_for(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !path.exists() {
        assert!(Instant::now() < deadline, "no {}", path.display());
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn flight_dump_writes_a_file_beamr_trace_reads() {
    let server = Server::start_with(&["--flight"]);
    assert_eq!(server.eval("ctl_server:ask(2)"), "{v1,2}");
    let dir = ctl_support::ctl_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("flight.ring");
    let said = server.ctl_json(&["flight", "dump", file.to_str().unwrap()]);
    assert_eq!(said["dumped"], file.to_str().unwrap());
    assert_eq!(
        said["bytes"].as_u64().unwrap(),
        std::fs::metadata(&file).unwrap().len()
    );
    assert_recorded(&server, &file);
    // The program's own tracing sees nothing of it.
    assert_eq!(
        server.eval("erlang:trace_info(whereis(ctl_server), flags)"),
        "{flags,[]}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_runtime_without_one_says_how_to_start_it() {
    let server = Server::start();
    let out = server.ctl(&["flight", "dump", "/tmp/never-written.ring"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("run it with --flight or BEAMR_FLIGHT=1"),
        "{stderr}"
    );
}

#[test]
fn sigusr2_and_an_error_halt_dump_it() {
    let cwd = ctl_support::ctl_dir();
    std::fs::create_dir_all(&cwd).unwrap();
    let mut server = Server::start_in(&[], Some(&cwd), &[("BEAMR_FLIGHT", "1")]);
    let file = cwd.join(format!("beamr-flight-{}.ring", server.pid()));
    assert_eq!(server.eval("ctl_server:ask(1)"), "{v1,1}");
    let killed = Command::new("kill")
        .args(["-USR2", &server.pid().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    wait_for(&file);
    // Written whole before the line that says so; the runtime goes on.
    assert_eq!(server.eval("ctl_server:ask(3)"), "{v1,3}");
    assert_recorded(&server, &file);
    std::fs::remove_file(&file).unwrap();
    // A halt with an error status dumps again, and the recorder's own file
    // goes.
    let _ = server.ctl(&["eval", "erlang:halt(3)"]);
    assert_eq!(server.wait_exit(Duration::from_secs(30)), Some(3));
    assert_recorded(&server, &file);
    let left: Vec<_> = std::fs::read_dir(&server.dir).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&cwd);
}

fn fixture(name: &str) -> std::path::PathBuf {
    std::env::var_os("BEAMR_FIXTURES_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fixtures"))
        .join("beam")
        .join(name)
}

#[test]
fn a_crash_of_the_program_dumps_it() {
    let cwd = ctl_support::ctl_dir();
    std::fs::create_dir_all(&cwd).unwrap();
    // ctl_server:ask/1 sends to a name nobody registered: badarg.
    let mut cmd = Command::new(ctl_support::beamr());
    cmd.args(["run", "--flight", "--no-ctl", "-e", "ctl_server:ask"])
        .arg(fixture("ctl_server.beam"))
        .args(["--", "x"])
        .current_dir(&cwd);
    let out = ctl_support::run_bounded(&mut cmd);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let line = stderr
        .lines()
        .find(|l| l.starts_with("beamr: crash: flight recorder dumped to "))
        .unwrap_or_else(|| panic!("{stderr}"));
    let file = cwd.join(line.rsplit(' ').next().unwrap());
    let dump = beamr_trace(&["trace", "dump"], &file);
    assert!(dump.lines().any(|l| l.contains(" exit ")), "{dump}");
    let _ = std::fs::remove_dir_all(&cwd);
}

/// A supervisor that reaches its maximum restart intensity: the runtime
/// dumps while the program goes on (it sees the file appear, then ends
/// with status 0, which dumps nothing), and the dump holds the crashes
/// that made the supervisor give up.
#[test]
fn a_supervisor_giving_up_dumps_it() {
    let cwd = ctl_support::ctl_dir();
    std::fs::create_dir_all(&cwd).unwrap();
    let mut cmd = Command::new(ctl_support::beamr());
    cmd.args(["run", "--flight", "--no-ctl", "-e", "flight_sup:main"])
        .arg(fixture("flight_sup.beam"))
        .current_dir(&cwd);
    let out = ctl_support::run_bounded(&mut cmd);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("supervisor ended: shutdown\n"), "{stdout}");
    assert!(stdout.ends_with("dumped\n"), "{stdout}");
    let line = stderr
        .lines()
        .find(|l| {
            l.starts_with(
                "beamr: supervisor {local,flight_sup} gave up: flight recorder dumped to ",
            )
        })
        .unwrap_or_else(|| panic!("{stderr}"));
    let file = cwd.join(line.rsplit(' ').next().unwrap());
    let dump = beamr_trace(&["trace", "dump"], &file);
    let crashes = dump
        .lines()
        .filter(|l| l.contains(" exit ") && l.contains("flight_sup_boom"))
        .count();
    assert_eq!(crashes, 2, "{dump}");
    let _ = std::fs::remove_dir_all(&cwd);
}
