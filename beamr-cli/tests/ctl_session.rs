//! The live-debugging session of issue 33, end to end: a server (a slow
//! function behind a request loop) runs under `beamr run --flight`; from
//! other processes `beamr ctl` finds it, traces the slow function with `x`
//! and the answers the server sends, reads `top`, loads a fixed module and
//! sees the new answers in the trace, dumps the flight recorder and reads
//! it with `beamr trace dump`, and detaches. The server never restarts and
//! prints nothing it would not print untraced.

mod ctl_support;

use std::process::Command;
use std::sync::mpsc::TryRecvError;
use std::time::Duration;

use ctl_support::{Server, TraceClient};

fn ask(server: &Server, n: u32) -> String {
    server.eval(&format!("ctl_server:ask({n})"))
}

/// The trace's next `n` lines.
fn next_lines(client: &TraceClient, n: usize) -> Vec<String> {
    (0..n).map(|_| client.line()).collect()
}

#[test]
fn attach_trace_fix_dump_and_detach() {
    let mut server = Server::start_with(&["--flight"]);
    let pid = server.pid();
    // Found by `list`, and by the module it runs.
    let list = ctl_support::ctl(&server.dir, &["list", "--json"]);
    let list: serde_json::Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(list[0]["os_pid"], pid);
    // The flight recorder is no trace session: the server is untraced.
    let sessions = || server.eval("erts_internal:trace_info(any, whereis(ctl_server), session)");
    let untraced = sessions();
    assert!(!untraced.contains("beamr_flight"), "{untraced}");
    // The slow function's calls and returns, and what the server sends.
    let mut trace = TraceClient::start(
        &server,
        &["trace", "send", "ctl_server", "--tp", "ctl_server:slow/1:x"],
    );
    assert_eq!(ask(&server, 20), "{v1,20}");
    let main = server.erlang_pid.clone();
    let lines = next_lines(&trace, 3);
    assert_eq!(lines[0], format!("({main}) call ctl_server:slow(20)"));
    assert_eq!(
        lines[1],
        format!("({main}) returned from ctl_server:slow/1 -> 20")
    );
    assert!(lines[2].ends_with(" ! {answer,{v1,20}}"), "{lines:?}");
    // top, while the trace runs.
    let top = server.ctl_ok(&["top", "--count", "1", "--rows", "5", "--interval", "300"]);
    assert!(
        top.lines().nth(1).is_some_and(|l| l.starts_with("PID ")),
        "{top}"
    );
    // The fix, loaded into the running server.
    let build = ctl_support::ctl_dir();
    std::fs::create_dir_all(&build).unwrap();
    let source = build.join("ctl_answer.erl");
    std::fs::write(
        &source,
        "-module(ctl_answer).\n-export([answer/1]).\nanswer(N) -> {v2, N}.\n",
    )
    .unwrap();
    let erlc = Command::new("erlc")
        .arg("-o")
        .arg(&build)
        .arg(&source)
        .status()
        .unwrap();
    assert!(erlc.success());
    let beam = build.join("ctl_answer.beam");
    assert_eq!(
        server.ctl_ok(&["load", beam.to_str().unwrap()]).trim(),
        "loaded ctl_answer"
    );
    assert_eq!(ask(&server, 21), "{v2,21}");
    let lines = next_lines(&trace, 3);
    assert_eq!(lines[0], format!("({main}) call ctl_server:slow(21)"));
    assert!(lines[2].ends_with(" ! {answer,{v2,21}}"), "{lines:?}");
    // The flight recorder counted the requests' messages.
    let flight = build.join("flight.ring");
    server.ctl_ok(&["flight", "dump", flight.to_str().unwrap()]);
    let dump = ctl_support::run_bounded(
        Command::new(ctl_support::beamr())
            .args(["trace", "dump"])
            .arg(&flight),
    );
    let dump = String::from_utf8_lossy(&dump.stdout).into_owned();
    assert!(ctl_support::counted(&dump, "messages"), "{dump}");
    // Detach: the session goes, with its flags and pattern.
    trace.kill();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while sessions() != untraced {
        assert!(
            std::time::Instant::now() < deadline,
            "the session outlived its client"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(ask(&server, 22), "{v2,22}");
    // The same server all along, which printed only its ready line.
    assert_eq!(server.child.try_wait().unwrap(), None);
    assert_eq!(server.pid(), pid);
    assert_eq!(server.lines.try_recv(), Err(TryRecvError::Empty));
    let _ = std::fs::remove_dir_all(&build);
}
