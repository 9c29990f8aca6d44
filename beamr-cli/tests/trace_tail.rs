//! `beamr trace tail`: following a file while this test writes it, stopping
//! on `--max-events`, `--timeout`, SIGINT, and the writer's exit.

mod trace_support;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use beamr_ringbuf::layout::{file_header, Geometry};
use beamr_ringbuf::{Options, Recorder, RingWriter};
use serde_json::Value;
use trace_support::*;

fn spawn_tail(args: &[&str]) -> Child {
    beamr()
        .arg("trace")
        .arg("tail")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting beamr trace tail")
}

/// The payload's first word of each JSON event line.
fn payloads(out: &str) -> Vec<u64> {
    out.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "event")
        .map(|v| v["payload"][0].as_u64().unwrap())
        .collect()
}

/// Waits for `child` at most `limit`, killing it (and failing) after that.
/// Its output is read meanwhile, so that a full pipe cannot stall it.
fn wait(mut child: Child, limit: Duration) -> (std::process::ExitStatus, String, String) {
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            r.read_to_string(&mut s).unwrap();
            s
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("tail did not stop within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    (status, out.join().unwrap(), err.join().unwrap())
}

fn recorder(path: &std::path::Path) -> Recorder {
    Recorder::create(
        Options::new(2)
            .path(path)
            .ring_words(1 << 12)
            .preserve(true),
    )
    .unwrap()
}

/// Writes one event per number of `events` (its payload), in bursts of 25
/// with pauses that a following tail sleeps through.
fn write_in_bursts(w: &mut RingWriter<'_>, mut events: std::ops::Range<u64>) {
    while !events.is_empty() {
        for i in events.by_ref().take(25) {
            assert!(w.write_now(7, &[i]));
        }
        std::thread::sleep(Duration::from_millis(15));
    }
}

#[test]
fn follows_a_live_writer_until_max_events() {
    let dir = scratch("tail-live");
    let path = dir.join("live.trace");
    let rec = recorder(&path);
    let mut w = rec.writer(1).unwrap();
    let child = spawn_tail(&[
        "--format",
        "json",
        "--max-events",
        "300",
        "--timeout",
        "60",
        path.to_str().unwrap(),
    ]);
    // Written while tail runs; more than tail will print, to show it stops
    // at its limit.
    write_in_bursts(&mut w, 0..400);
    let (status, out, err) = wait(child, Duration::from_secs(60));
    assert!(status.success(), "{err}");
    assert_eq!(payloads(&out), (0..300).collect::<Vec<_>>());
    assert_eq!(err.trim(), "# 300 events, 0 lost: --max-events reached");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn new_skips_what_is_already_there() {
    let dir = scratch("tail-new");
    let path = dir.join("new.trace");
    // A ring that holds every event the loop below can write (2^17 words,
    // 32,768 events or more), so that a tail a loaded machine holds off
    // for a while still finds each one it has not read.
    let rec = Recorder::create(
        Options::new(2)
            .path(&path)
            .ring_words(1 << 17)
            .preserve(true),
    )
    .unwrap();
    let mut w = rec.writer(1).unwrap();
    for i in 0..50u64 {
        w.write_now(7, &[i]);
    }
    let mut child = spawn_tail(&[
        "--new",
        "--format",
        "json",
        "--max-events",
        "5",
        "--timeout",
        "60",
        path.to_str().unwrap(),
    ]);
    // Keep writing until tail has seen five new events: 30,000 writes at
    // 2 ms or more apiece give it a minute or more (it needs milliseconds).
    let mut i = 50u64;
    let status = loop {
        w.write_now(7, &[i]);
        i += 1;
        std::thread::sleep(Duration::from_millis(2));
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(i < 50 + 30_000, "tail did not stop");
    };
    let (_, out, err) = wait(child, Duration::from_secs(5));
    assert!(status.success(), "{err}");
    let got = payloads(&out);
    assert_eq!(got.len(), 5);
    assert!(got[0] >= 50, "old events were printed: {got:?}");
    assert!(got.windows(2).all(|p| p[1] == p[0] + 1), "{got:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn losses_while_following_are_reported() {
    let dir = scratch("tail-lost");
    let path = dir.join("lost.trace");
    // A 512-word ring holds 128 four-word events.
    let rec = Recorder::create(Options::new(1).path(&path).ring_words(512).preserve(true)).unwrap();
    let mut w = rec.writer(0).unwrap();
    for i in 0..1000u64 {
        w.write_now(7, &[i, 0]);
    }
    // The timeout runs from tail's start, before its first poll: 5 s
    // leaves room for a start a loaded machine stalls (it takes
    // milliseconds), and this test waits it out.
    let child = spawn_tail(&["--format", "json", "--timeout", "5", path.to_str().unwrap()]);
    let (status, out, err) = wait(child, Duration::from_secs(60));
    assert!(status.success(), "{err}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let lost: u64 = lines
        .iter()
        .filter(|v| v["type"] == "lost")
        .map(|v| v["count"].as_u64().unwrap())
        .sum();
    let got = payloads(&out);
    assert_eq!(lost + got.len() as u64, 1000);
    assert_eq!(*got.last().unwrap(), 999);
    assert!(err.contains("--timeout reached"), "{err}");
    drop(w);
    drop(rec);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stops_when_the_writer_has_exited() {
    let dir = scratch("tail-exited");
    let (path, written) = synthetic_file(&dir, 1500);
    // This process wrote the file and is alive; make the header name a
    // process that has exited (and been reaped).
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    poke(&path, file_header::WRITER_PID as u64, dead as u64);
    let child = spawn_tail(&["--timeout", "60", path.to_str().unwrap()]);
    let (status, out, err) = wait(child, Duration::from_secs(60));
    assert!(status.success(), "{err}");
    assert_eq!(out.lines().count() as u64, written.total());
    assert_eq!(
        err.trim(),
        format!("# 1500 events, 0 lost: the writer (pid {dead}) has exited")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigint_ends_it_cleanly() {
    let dir = scratch("tail-sigint");
    let path = dir.join("int.trace");
    let rec = recorder(&path);
    let mut w = rec.writer(1).unwrap();
    w.write_now(7, &[1]);
    let mut child = spawn_tail(&["--format", "json", path.to_str().unwrap()]);
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    assert_eq!(payloads(&first), [1]);
    // It follows (the writer, this process, is alive) until interrupted.
    w.write_now(7, &[2]);
    let mut second = String::new();
    stdout.read_line(&mut second).unwrap();
    assert_eq!(payloads(&second), [2]);
    let kill = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "SIGINT did not stop tail"
        );
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{status:?} {err}");
    assert_eq!(err.trim(), "# 2 events, 0 lost: interrupted");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_event_is_reported_and_following_goes_on() {
    let dir = scratch("tail-damaged");
    let path = dir.join("damaged.trace");
    let rec = recorder(&path);
    let mut w = rec.writer(1).unwrap();
    for i in 0..100u64 {
        assert!(w.write_now(7, &[i]));
    }
    // One bit of event 10's payload, flipped in the file under the live
    // writer: its checksum no longer holds.
    let cursor = beamr_ringbuf::Cursor::open(&path).unwrap();
    let g = Geometry::new(cursor.ring_count(), cursor.info().ring_words, 1 << 20);
    let pos = event_word(&path, &g, 1, 10) + 2;
    poke(&path, pos, read_word(&path, pos) ^ 1 << 5);
    let child = spawn_tail(&[
        "--format",
        "json",
        "--max-events",
        "199",
        "--timeout",
        "60",
        path.to_str().unwrap(),
    ]);
    // Written after the damage, while tail follows.
    write_in_bursts(&mut w, 100..200);
    let (status, out, err) = wait(child, Duration::from_secs(60));
    let expected: Vec<u64> = (0..200).filter(|&i| i != 10).collect();
    assert_eq!(payloads(&out), expected, "{err}");
    let lost: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "lost")
        .collect();
    assert_eq!(lost.len(), 1, "{out}");
    assert_eq!(lost[0]["count"], 1);
    // The command fails at the end, as dump does on the same file.
    assert_eq!(status.code(), Some(2), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines[0], "# 199 events, 1 lost: --max-events reached");
    assert!(
        lines[1].starts_with("beamr: ")
            && lines[1].contains("ring 1 is corrupt at word")
            && lines[1].contains("bad checksum (1 event lost to it, not decoded)"),
        "{err}"
    );
    assert_eq!(lines.len(), 2, "{err}");
    drop(w);
    drop(rec);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_timeout_is_one_error_line() {
    let dir = scratch("tail-bad-timeout");
    let (path, _) = synthetic_file(&dir, 10);
    let out = run(&["trace", "tail", "--timeout=-1", path.to_str().unwrap()]);
    assert_one_line_error(&out, "--timeout -1");
    let _ = std::fs::remove_dir_all(&dir);
}
