//! `beamr run --trace ... --trace-to ring:FILE` records the run's
//! `seq_trace` events, `beamr trace seq FILE --label L` draws one label as
//! a Mermaid sequence diagram, and `--trace-limit` drops (and counts) what
//! is past it (tests/erlang/seq_trace_ring.erl).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod support;

use support::fixtures;

fn beamr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_beamr"))
        .args(args)
        .output()
        .unwrap()
}

fn trace_file(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beamr-trace-seq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// Runs seq_trace_ring with `options` into `file`; checks that it ran.
fn record(options: &[&str], file: &Path) -> Output {
    let ring = format!("ring:{}", file.display());
    let dir = fixtures("seq_trace_ring");
    let mut args = vec!["run"];
    args.extend_from_slice(options);
    args.extend(["--trace-to", &ring, "-e", "seq_trace_ring"]);
    args.push(dir.to_str().unwrap());
    let out = beamr(&args);
    assert!(
        out.status.success(),
        "run failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "done\n");
    out
}

#[test]
fn one_label_is_drawn_as_a_sequence_diagram() {
    let file = trace_file("seq.trace");
    record(&["--trace", "procs"], &file);
    let out = beamr(&["trace", "seq", file.to_str().unwrap(), "--label", "7"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "sequenceDiagram");
    assert!(lines[1].starts_with("    participant P1 as <0."), "{text}");
    assert!(lines[2].starts_with("    participant P2 as <0."), "{text}");
    // ping (send and receive: one arrow), the server's print, pong.
    assert_eq!(lines[3], "    P1->>P2: {...}/2 (3 words) [0,1]", "{text}");
    assert_eq!(lines[4], "    Note over P2: print got_ping [1,2]", "{text}");
    assert_eq!(lines[5], "    P2->>P1: pong [1,3]", "{text}");
    assert_eq!(lines.len(), 6, "{text}");
    // Another label: one error line, status 2.
    let none = beamr(&["trace", "seq", file.to_str().unwrap(), "--label", "8"]);
    assert_eq!(none.status.code(), Some(2));
    let err = String::from_utf8_lossy(&none.stderr);
    assert!(err.contains("no seq_trace events with label 8"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_truncated_recording_is_one_clear_error() {
    let file = trace_file("cut.trace");
    record(&["--trace", "procs"], &file);
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let out = beamr(&["trace", "seq", file.to_str().unwrap(), "--label", "7"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("beamr: "), "{err}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn the_trace_limit_drops_and_counts_the_rest() {
    let file = trace_file("limited.trace");
    let out = record(&["--trace", "send,receive", "--trace-limit", "10"], &file);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("events dropped by --trace-limit"), "{err}");
    let stats = beamr(&["trace", "stats", file.to_str().unwrap(), "--format", "json"]);
    assert!(stats.status.success());
    let v: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(v["events"], 10);
    // 51 messages each way, each a send and a receive, and the seq_trace
    // events: well past 10.
    assert!(v["dropped"].as_u64().unwrap() > 150, "{v}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn bad_limits_are_one_line_and_status_2() {
    for args in [
        &["run", "--trace-limit", "3", "x.beam"][..],
        &[
            "run",
            "--trace",
            "send",
            "--trace-rate",
            "0",
            "--trace-to",
            "ring:/nonexistent/x",
            "x.beam",
        ][..],
        &[
            "run",
            "--trace",
            "send",
            "--trace-limit",
            "many",
            "--trace-to",
            "ring:x",
            "x.beam",
        ][..],
        &["trace", "seq", "/nonexistent.trace"][..],
    ] {
        let out = beamr(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
