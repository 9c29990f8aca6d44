//! `beamr run --trace FLAGS --trace-to ring:FILE` records a real run: the
//! probes in beamr-sched fire through the ring-buffer backend, and
//! `beamr trace dump` reads back exactly the events of the program
//! (tests/erlang/trace_run.erl), per process, in the order they happened.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

mod support;

use support::fixtures;

fn beamr() -> Command {
    Command::new(env!("CARGO_BIN_EXE_beamr"))
}

fn trace_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beamr-trace-run-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs `module` with the trace options `trace` into a fresh ring file
/// `file`; returns what the program printed and the dump's lines.
fn record(module: &str, trace: &[&str], file: &str) -> (String, Vec<String>) {
    let file = trace_file(file);
    let out = beamr()
        .arg("run")
        .args(trace)
        .arg("--trace-to")
        .arg(format!("ring:{}", file.display()))
        .args(["-e", module])
        .arg(fixtures(module))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dump = beamr()
        .arg("trace")
        .arg("dump")
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        dump.status.success(),
        "dump failed: {}",
        String::from_utf8_lossy(&dump.stderr)
    );
    let _ = std::fs::remove_file(&file);
    let lines = String::from_utf8(dump.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    (String::from_utf8_lossy(&out.stdout).into_owned(), lines)
}

/// Runs trace_run with `flags` on two schedulers into a fresh file and
/// returns the dump's lines.
fn traced_run(flags: &str, file: &str) -> Vec<String> {
    record("trace_run", &["-S", "2", "--trace", flags], file).1
}

/// One dump line: (timestamp, pid, tag, rest).
fn fields(line: &str) -> (f64, String, String, String) {
    let mut it = line.split_whitespace();
    let ts = it.next().unwrap().parse().unwrap();
    let _scheduler = it.next().unwrap();
    let pid = it.next().unwrap().to_owned();
    let tag = it.next().unwrap().to_owned();
    let rest = it.collect::<Vec<_>>().join(" ");
    (ts, pid, tag, rest)
}

/// Each process's events as `tag rest` with pids renamed `M` (main) and
/// `C` (child), in file order; checks that every process's timestamps never
/// go back.
fn per_process(lines: &[String]) -> BTreeMap<String, Vec<String>> {
    let spawn = lines
        .iter()
        .map(|l| fields(l))
        .find(|(_, _, tag, rest)| tag == "spawn" && rest.ends_with("trace_run:child/1"))
        .expect("main's spawn of trace_run:child/1 was recorded");
    let main = spawn.1.clone();
    let child = spawn.3.split_whitespace().nth(1).unwrap().to_owned();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut last: BTreeMap<String, f64> = BTreeMap::new();
    for (ts, pid, tag, rest) in lines.iter().map(|l| fields(l)) {
        let who = if pid == main {
            "M"
        } else if pid == child {
            "C"
        } else {
            continue;
        };
        let prev = last.insert(who.to_owned(), ts).unwrap_or(0.0);
        assert!(ts >= prev, "{who}'s events go back in time at {tag} {rest}");
        let rest = rest.replace(&main, "M").replace(&child, "C");
        out.entry(who.to_owned())
            .or_default()
            .push(format!("{tag} {rest}").trim_end().to_owned());
    }
    out
}

#[test]
fn send_receive_and_procs_events_of_a_run_are_recorded_in_order() {
    let lines = traced_run("send,receive,procs", "procs.trace");
    let events = per_process(&lines);
    assert_eq!(
        events["M"],
        [
            "spawn child C trace_run:child/1",
            "link C",
            // To a registered name: the ring format keeps pids only.
            "send -> - {ping,...}/2 (3 words)",
            "receive <- - {pong,...}/2 (3 words)",
            "unlink C",
            "send -> C stop",
            "receive <- - {done,...}/2 (3 words)",
            "exit normal",
        ]
    );
    assert_eq!(
        events["C"],
        [
            "spawned parent M trace_run:child/1",
            "getting_linked M",
            "register trace_run_child",
            "receive <- - {ping,...}/2 (3 words)",
            "send -> M {pong,...}/2 (3 words)",
            "getting_unlinked M",
            "receive <- - stop",
            "send -> M {done,...}/2 (3 words)",
            "exit normal",
            "unregister trace_run_child",
        ]
    );
}

#[test]
fn only_the_flags_asked_for_fire() {
    let lines = traced_run("procs", "procs-only.trace");
    let events = per_process(&lines);
    let tags: Vec<&str> = events
        .values()
        .flatten()
        .map(|e| e.split_whitespace().next().unwrap())
        .collect();
    assert!(tags.contains(&"spawn") && tags.contains(&"exit"));
    assert!(
        !tags
            .iter()
            .any(|t| matches!(*t, "send" | "receive" | "in" | "out")),
        "{tags:?}"
    );
}

#[test]
fn running_events_alternate_in_and_out() {
    let lines = traced_run("procs,running", "running.trace");
    let events = per_process(&lines);
    for (who, list) in &events {
        let tags: Vec<&str> = list
            .iter()
            .map(|e| e.split_whitespace().next().unwrap())
            .filter(|t| matches!(*t, "in" | "out"))
            .collect();
        assert!(!tags.is_empty(), "{who} was never scheduled");
        for pair in tags.chunks(2) {
            assert_eq!(pair[0], "in", "{who}: {tags:?}");
            if let Some(out) = pair.get(1) {
                assert_eq!(*out, "out", "{who}: {tags:?}");
            }
        }
    }
    let first_in = events["C"].iter().find(|e| e.starts_with("in "));
    assert!(
        first_in.is_some_and(|e| e.contains("trace_run:child/1")),
        "{:?}",
        events["C"]
    );
}

#[test]
fn bad_trace_options_exit_2_with_one_line() {
    for (args, expected) in [
        (
            vec!["--trace", "send,bogus", "--trace-to", "ring:x"],
            "unknown trace flag `bogus`",
        ),
        (vec!["--trace", "send"], "--trace needs --trace-to"),
        (
            vec!["--trace", "send", "--trace-to", "file:x"],
            "expected ring:FILE, text, text:FILE or otel",
        ),
    ] {
        let out = beamr()
            .arg("run")
            .args(&args)
            .args(["-e", "trace_run"])
            .arg(fixtures("trace_run"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn trace_call_records_calls_and_returns_of_a_function() {
    let trace = ["--trace-call", "trace_calls:fib/1:x"];
    let (stdout, lines) = record("trace_calls", &trace, "calls.trace");
    assert_eq!(stdout, "5\n");
    let text = lines.join("\n");
    let events: Vec<(String, String)> = text
        .lines()
        .map(|l| {
            let (_, _, tag, rest) = fields(l);
            (tag, rest)
        })
        .collect();
    // fib(5) makes 15 calls of fib/1, each returning.
    let count = |tag: &str| events.iter().filter(|(t, _)| t == tag).count();
    assert_eq!((count("call"), count("return_from")), (15, 15), "{text}");
    assert!(events
        .iter()
        .all(|(_, rest)| rest.starts_with("trace_calls:fib/1")));
    assert_eq!(events[0].0, "call");
    assert_eq!(
        events.last().map(|(t, r)| (t.as_str(), r.as_str())),
        Some(("return_from", "trace_calls:fib/1 -> 5"))
    );
}

#[test]
fn trace_call_records_local_calls_too() {
    // fib/1 is not exported and calls itself locally: all 15 calls of
    // fib(5) fire, as under dbg:tpl.
    let trace = ["--trace-call", "trace_local_calls:fib/1:x"];
    let (stdout, lines) = record("trace_local_calls", &trace, "local.trace");
    assert_eq!(stdout, "5\n");
    let tags: Vec<String> = lines
        .iter()
        .map(|l| fields(l))
        .filter(|(_, _, _, rest)| rest.starts_with("trace_local_calls:fib/1"))
        .map(|(_, _, tag, _)| tag)
        .collect();
    let count = |tag: &str| tags.iter().filter(|t| *t == tag).count();
    assert_eq!(
        (count("call"), count("return_from")),
        (15, 15),
        "{lines:#?}"
    );
}

#[test]
fn trace_call_on_a_missing_function_exits_2() {
    for (pattern, expected) in [
        ("trace_calls:nope/1", "no such function"),
        ("no_such_module:f/1", "no module no_such_module"),
        ("trace_calls", "expected MOD:FUN"),
    ] {
        let file = trace_file("never-made.trace");
        let out = beamr()
            .args(["run", "--trace-call", pattern, "--trace-to"])
            .arg(format!("ring:{}", file.display()))
            .args(["-e", "trace_calls"])
            .arg(fixtures("trace_calls"))
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{pattern}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{pattern}: {err}");
        assert!(!file.exists(), "{pattern}: no trace file is made");
    }
}
