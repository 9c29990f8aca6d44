//! Tracing never takes a run down (issue 10, point 9), on
//! tests/erlang/trace_safety.erl: `--trace-rate` and `--trace-limit` keep
//! what a run records to so many events (a second, in all), and count and
//! report the rest (on standard error, and in a ring file's header, which
//! `beamr trace stats` shows); two tracers tracing each other's receives
//! do not feed each other forever; a tracer process that takes a flood of
//! trace messages without allocating keeps none it took. (A tracer
//! process that dies takes its flags with it:
//! tests/diff/trace_tracer_dies.erl.)

use std::io::{Seek, SeekFrom, Write};
use std::process::{Command, Output};
use std::time::Instant;

mod support;

use support::fixtures;

fn beamr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_beamr"))
        .args(args)
        .output()
        .expect("running beamr")
}

/// `busy/0` traced with `options`: the output and the seconds it took.
fn busy(options: &[&str]) -> (Output, f64) {
    let dir = fixtures("trace_safety");
    let mut args = vec!["run", "-e", "trace_safety:busy", "--trace", "send,receive"];
    args.extend_from_slice(options);
    args.push(dir.to_str().unwrap());
    let start = Instant::now();
    let out = beamr(&args);
    let took = start.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "done\n");
    (out, took)
}

/// The count in `beamr: trace: N events dropped ...`.
fn dropped(stderr: &str) -> u64 {
    let line = stderr
        .lines()
        .find(|l| l.contains("events dropped by --trace-limit/--trace-rate"))
        .unwrap_or_else(|| panic!("no drop report: {stderr}"));
    line.trim_start_matches("beamr: trace: ")
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn the_rate_limit_keeps_so_many_a_second_and_counts_the_rest() {
    let (out, took) = busy(&[
        "--trace-pids",
        "new",
        "--trace-rate",
        "100",
        "--trace-to",
        "text",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    let lines = err.lines().filter(|l| l.starts_with("(<")).count() as u64;
    let dropped = dropped(&err);
    // 2000 round trips: 8000 sends and receives, a few more for the
    // output; at most 100 in each second begun.
    assert!(lines + dropped >= 8000, "{lines} + {dropped}");
    assert!(lines >= 100, "{lines}");
    assert!(
        lines as f64 <= 100.0 * (took.ceil() + 1.0),
        "{lines} in {took}s"
    );
}

#[test]
fn the_total_limit_is_shown_by_trace_stats() {
    let dir = std::env::temp_dir().join(format!("beamr-trace-safety-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("limited.trace");
    let ring = format!("ring:{}", file.display());
    let (out, _) = busy(&["--trace-limit", "500", "--trace-to", &ring]);
    let told = dropped(&String::from_utf8_lossy(&out.stderr));
    let stats = beamr(&["trace", "stats", file.to_str().unwrap(), "--format", "json"]);
    assert!(stats.status.success());
    let v: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(v["events"], 500, "{v}");
    assert_eq!(v["dropped"].as_u64(), Some(told), "{v}");
    assert!(told >= 7500, "{told}");
    // A count no writer can reach (a flipped top bit) is corruption,
    // named, not a number of events to report.
    let dropped_word = beamr_ringbuf::layout::file_header::EVENTS_DROPPED as u64 * 8;
    let mut f = std::fs::OpenOptions::new().write(true).open(&file).unwrap();
    f.seek(SeekFrom::Start(dropped_word)).unwrap();
    f.write_all(&(told | 1 << 63).to_le_bytes()).unwrap();
    drop(f);
    let stats = beamr(&["trace", "stats", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&stats.stderr);
    assert_eq!(stats.status.code(), Some(2), "{err}");
    assert!(stats.stdout.is_empty());
    assert!(
        err.contains(&format!(
            "corrupt header: events_dropped is {}, more than any writer can count",
            told | 1 << 63
        )),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tracers_tracing_each_other_do_not_loop() {
    let dir = fixtures("trace_safety");
    let out = beamr(&["run", "-e", "trace_safety", dir.to_str().unwrap()]);
    assert!(out.status.success());
    // The note A forwards, and the one trace message of its arrival that
    // B forwards: B getting that message is not traced to A.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "forwarded 2: [{note,hello}]\n"
    );
}

#[test]
fn a_tracer_keeps_none_of_the_trace_messages_it_took() {
    let dir = fixtures("trace_safety");
    let out = beamr(&["run", "-e", "trace_safety:flood", dir.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let mut lines = text.lines();
    let bytes: u64 = lines
        .next()
        .and_then(|l| l.strip_prefix("tracer memory "))
        .and_then(|l| l.strip_suffix(" bytes"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    // 80,040 messages of 9 words or more: 5.8 MB were they all kept.
    assert!(bytes < 100_000, "{bytes} bytes");
    assert_eq!(lines.next(), Some("trace messages 80040"));
}
