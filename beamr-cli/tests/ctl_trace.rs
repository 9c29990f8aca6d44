//! `beamr ctl PID trace ...` and `tp ...` against a running `ctl_server`:
//! a client traces in a trace session of its own, which sees calls and
//! returns, writes a ring file `beamr trace` reads, exports over OTLP
//! where the client's `OTEL_*` variables say, ends on its limit, its
//! duration, `trace stop` or the client's going, takes its flags and
//! patterns with it, and never touches another client's session or the
//! program's own tracing.

mod ctl_support;
mod otel_support;

use std::time::{Duration, Instant};

use ctl_support::{Server, TraceClient};
use otel_support::receiver::Receiver;

/// One request to the server, answered through `ctl_server:slow/1` and
/// `ctl_answer:answer/1`.
fn ask(server: &Server, n: u32) {
    assert_eq!(
        server.eval(&format!("ctl_server:ask({n})")),
        format!("{{v1,{n}}}")
    );
}

/// The trace sessions tracing the server's main process, and those with
/// patterns on `ctl_server:slow/1`, as `trace:session_info/1` answers
/// (erts_internal's BIF, so that OTP 25's library, which has no `trace`
/// module, asks the same).
fn sessions(server: &Server) -> (String, String) {
    (
        server.eval("erts_internal:trace_info(any, whereis(ctl_server), session)"),
        server.eval("erts_internal:trace_info(any, {ctl_server, slow, 1}, session)"),
    )
}

/// `{session,[{beamr_ctl,N}]}` for a session named `beamr_ctl N`.
fn session_list(names: &[&str]) -> String {
    let refs: Vec<String> = names
        .iter()
        .map(|n| format!("{{{}}}", n.replace(' ', ",")))
        .collect();
    format!("{{session,[{}]}}", refs.join(","))
}

/// Waits (bounded) until `sessions` answers `expected`.
fn wait_sessions(server: &Server, expected: (&str, &str)) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let (a, b) = sessions(server);
        if (a.as_str(), b.as_str()) == expected {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "sessions {a} {b}, expected {expected:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn tp_with_x_shows_calls_and_returns_and_ends_at_its_limit() {
    let server = Server::start();
    let client = TraceClient::start(&server, &["tp", "ctl_server:slow/1", "x", "--limit", "2"]);
    ask(&server, 7);
    let (code, lines, last) = client.finish();
    assert_eq!(code, Some(0), "{last}");
    let main = &server.erlang_pid;
    assert_eq!(
        lines,
        [
            format!("({main}) call ctl_server:slow(7)"),
            format!("({main}) returned from ctl_server:slow/1 -> 7"),
        ]
    );
    assert_eq!(last, "beamr ctl: trace ended (limit): 2 events, 0 dropped");
    // Its session is gone, and its pattern with it.
    wait_sessions(&server, ("{session,[]}", "{session,[]}"));
}

#[test]
fn a_ring_trace_is_read_by_beamr_trace_dump() {
    let server = Server::start();
    let dir = ctl_support::ctl_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let ring = dir.join("ctl.ring");
    let to = format!("ring:{}", ring.display());
    let client = TraceClient::start(
        &server,
        &[
            "trace",
            "call",
            "--tp",
            "ctl_answer:answer/1:x",
            "--to",
            &to,
            "--limit",
            "2",
        ],
    );
    ask(&server, 3);
    let (code, lines, last) = client.finish();
    assert_eq!(code, Some(0), "{last}");
    assert!(lines.is_empty(), "{lines:?}");
    let dump = ctl_support::run_bounded(
        std::process::Command::new(ctl_support::beamr())
            .args(["trace", "dump"])
            .arg(&ring),
    );
    let dump = String::from_utf8_lossy(&dump.stdout).into_owned();
    let events: Vec<&str> = dump.lines().collect();
    assert_eq!(events.len(), 2, "{dump}");
    assert!(
        events[0].contains(&server.erlang_pid)
            && events[0].contains(" call ")
            && events[0].ends_with("ctl_answer:answer/1"),
        "{dump}"
    );
    assert!(events[1].contains(" return_from "), "{dump}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Calls and returns of `ctl_server:slow/1` over OTLP, two events.
const OTEL_TRACE: [&str; 7] = [
    "tp",
    "ctl_server:slow/1",
    "x",
    "--to",
    "otel",
    "--limit",
    "2",
];

#[test]
fn an_otel_trace_is_exported_where_the_clients_variables_say() {
    let receiver = Receiver::grpc();
    let endpoint = receiver.endpoint();
    let server = Server::start();
    let client = TraceClient::start_with_env(
        &server,
        &OTEL_TRACE,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"),
            ("OTEL_SERVICE_NAME", "beamr-ctl-otel"),
            ("OTEL_BSP_SCHEDULE_DELAY", "50"),
        ],
    );
    ask(&server, 7);
    let (code, lines, last) = client.finish();
    assert_eq!(code, Some(0), "{last}");
    assert!(lines.is_empty(), "{lines:?}");
    assert_eq!(last, "beamr ctl: trace ended (limit): 2 events, 0 dropped");
    // The call and its return make one span, in the client's service.
    let got = receiver.wait_until(Duration::from_secs(30), |c| {
        c.spans.iter().any(|s| s.name == "ctl_server:slow/1")
    });
    let spans: Vec<_> = got
        .spans
        .iter()
        .filter(|s| s.name == "ctl_server:slow/1")
        .collect();
    assert_eq!(spans.len(), 1, "{:?}", got.spans);
    let span = spans[0];
    assert_eq!(
        span.resource.get("service.name").map(String::as_str),
        Some("beamr-ctl-otel")
    );
    assert_eq!(
        span.attrs.get("beamr.call.arguments").map(String::as_str),
        Some("[7]"),
        "{span:?}"
    );
    wait_sessions(&server, ("{session,[]}", "{session,[]}"));
}

/// A collector that cannot be reached: the trace still ends at its limit,
/// and the end says what the export lost.
#[test]
fn an_otel_export_that_fails_is_said_at_the_end() {
    let server = Server::start();
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let endpoint = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let client = TraceClient::start_with_env(
        &server,
        &OTEL_TRACE,
        &[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", &endpoint),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"),
        ],
    );
    ask(&server, 4);
    let (code, _, last) = client.finish();
    assert_eq!(code, Some(0), "{last}");
    assert!(
        last.starts_with("beamr ctl: trace ended (limit; otel: ")
            && last.contains(", 1 and 0 lost in failed exports"),
        "{last}"
    );
    assert!(last.ends_with("): 2 events, 0 dropped"), "{last}");
    // The runtime goes on.
    ask(&server, 5);
}

#[test]
fn two_clients_tracing_at_once_are_isolated() {
    let server = Server::start();
    let slow = TraceClient::start(&server, &["tp", "ctl_server:slow/1", "--limit", "1"]);
    let answer = TraceClient::start(&server, &["tp", "ctl_answer:answer/1", "--limit", "2"]);
    assert_ne!(slow.session, answer.session);
    ask(&server, 1);
    // The first ends at its limit; the second goes on, and sees the next
    // request alone.
    let (code, slow_lines, _) = slow.finish();
    assert_eq!(code, Some(0));
    ask(&server, 2);
    let (code, answer_lines, last) = answer.finish();
    assert_eq!(code, Some(0), "{last}");
    let main = &server.erlang_pid;
    assert_eq!(slow_lines, [format!("({main}) call ctl_server:slow(1)")]);
    assert_eq!(
        answer_lines,
        [
            format!("({main}) call ctl_answer:answer(1)"),
            format!("({main}) call ctl_answer:answer(2)"),
        ]
    );
    wait_sessions(&server, ("{session,[]}", "{session,[]}"));
}

#[test]
fn a_client_that_disconnects_mid_trace_has_its_session_ended() {
    let server = Server::start();
    let mut client = TraceClient::start(
        &server,
        &[
            "trace",
            "receive",
            "ctl_server",
            "--tp",
            "ctl_server:slow/1",
        ],
    );
    let listed = session_list(&[&client.session]);
    assert_eq!(sessions(&server), (listed.clone(), listed));
    ask(&server, 4);
    let line = client.line();
    assert!(
        line.starts_with(&format!("({}) << {{ask,", server.erlang_pid)) && line.ends_with(",4}"),
        "{line}"
    );
    client.kill();
    // Its flags leave the process and its pattern the function.
    wait_sessions(&server, ("{session,[]}", "{session,[]}"));
    assert_eq!(
        server.eval("erlang:trace_info(whereis(ctl_server), flags)"),
        "{flags,[]}"
    );
    ask(&server, 5);
}

#[test]
fn trace_stop_ends_every_client_s_trace() {
    let server = Server::start();
    let a = TraceClient::start(&server, &["trace", "procs", "all"]);
    let b = TraceClient::start(&server, &["tp", "ctl_answer:answer/1"]);
    assert_eq!(
        server.ctl_ok(&["trace", "stop"]).trim(),
        "stopped 2 trace sessions"
    );
    for client in [a, b] {
        let (code, _, last) = client.finish();
        assert_eq!(code, Some(0));
        assert!(
            last.starts_with("beamr ctl: trace ended (stopped)"),
            "{last}"
        );
    }
    wait_sessions(&server, ("{session,[]}", "{session,[]}"));
    assert_eq!(
        server.ctl_ok(&["trace", "stop"]).trim(),
        "stopped 0 trace sessions"
    );
}

#[test]
fn the_program_s_own_tracing_is_untouched() {
    let server = Server::start();
    // The program traces its server's receives to a process that never
    // reads them.
    assert_eq!(
        server.eval(
            "C = spawn(fun() -> timer:sleep(infinity) end), register(ctl_collector, C), \
             erlang:trace(whereis(ctl_server), true, ['receive', {tracer, C}])"
        ),
        "1"
    );
    let queued = || {
        server
            .eval("element(2, process_info(whereis(ctl_collector), message_queue_len))")
            .parse::<u64>()
            .unwrap()
    };
    ask(&server, 1);
    let before = queued();
    assert!(before >= 1, "{before}");
    // A client traces the same flag on every process, and ends.
    let client = TraceClient::start(&server, &["trace", "receive", "all", "--for", "2s"]);
    ask(&server, 2);
    let (code, lines, last) = client.finish();
    assert_eq!(code, Some(0), "{last}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("({}) << {{ask,", server.erlang_pid))),
        "{lines:?}"
    );
    assert!(
        last.starts_with("beamr ctl: trace ended (duration)"),
        "{last}"
    );
    // The program's flag and tracer are as they were, and it still gets
    // its events: the receive of each request (and of its answer's
    // timer), while the client traced and after.
    assert_eq!(
        server.eval("erlang:trace_info(whereis(ctl_server), flags)"),
        "{flags,['receive']}"
    );
    assert_eq!(
        server.eval(
            "{tracer, T} = erlang:trace_info(whereis(ctl_server), tracer), T =:= whereis(ctl_collector)"
        ),
        "true"
    );
    let during = queued();
    assert!(during > before, "{during} after {before}");
    ask(&server, 3);
    assert!(queued() > during);
}

#[test]
fn bad_requests_are_refused_and_leave_no_session() {
    let server = Server::start();
    let refused = |args: &[&str], says: &str| {
        let out = server.ctl(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    };
    refused(&["trace", "bogus"], "unknown trace flag `bogus`");
    refused(
        &["tp", "ctl_answer:nope/1"],
        "ctl_answer:nope/1: no such function",
    );
    refused(
        &["tp", "ctl_answer:answer/1", "[{bad"],
        "match specification",
    );
    refused(
        &["tp", "ctl_answer:answer/1", "[{foo}]"],
        "a bad match specification",
    );
    refused(
        &["trace", "call", "no_such_name"],
        "no process no_such_name",
    );
    refused(&["tp", "nocolon"], "expected MOD:FUN/ARITY");
    refused(&["trace", "call", "--for", "soon"], "--for `soon`");
    refused(
        &["trace", "call", "--to", "syslog"],
        "--to `syslog`: expected text, ring:FILE or otel",
    );
    assert_eq!(
        server.eval("erts_internal:trace_info(any, any, session)"),
        "{session,[{legacy,default}]}"
    );
    ask(&server, 1);
}
