//! Every `beamr trace` command on files that are not good traces: one error
//! line on standard error, exit status 2, never a panic or a hang.

mod trace_support;

use std::path::Path;

use beamr_ringbuf::layout::{file_header, Geometry};
use trace_support::*;

/// Runs every command on `path`; each must fail with one line saying `needle`.
fn all_fail(dir: &Path, path: &Path, needle: &str) {
    let p = path.to_str().unwrap();
    let out = dir.join("out");
    let o = out.to_str().unwrap();
    let commands: [&[&str]; 7] = [
        &["trace", "dump", p],
        &["trace", "dump", "--format", "json", p],
        &["trace", "stats", p],
        &["trace", "stats", "--format", "json", p],
        &["trace", "tail", "--timeout", "5", p],
        &["trace", "export", p, "--format", "chrome", "-o", o],
        &["trace", "flame", p, "-o", o],
    ];
    for args in commands {
        let result = run(args);
        assert_one_line_error(&result, needle);
        let err = String::from_utf8_lossy(&result.stderr);
        assert!(
            err.contains(p),
            "{args:?}: the error does not name the file: {err}"
        );
    }
}

#[test]
fn not_a_trace() {
    let dir = scratch("bad-not-a-trace");
    let text = dir.join("notes.txt");
    std::fs::write(
        &text,
        "these are not the events you are looking for\n".repeat(20),
    )
    .unwrap();
    all_fail(&dir, &text, "not a beamr trace file");
    let empty = dir.join("empty");
    std::fs::write(&empty, b"").unwrap();
    all_fail(&dir, &empty, "not a beamr trace file");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_file_and_directory() {
    let dir = scratch("bad-missing");
    all_fail(&dir, &dir.join("nope.trace"), "No such file");
    let sub = dir.join("a-directory");
    std::fs::create_dir(&sub).unwrap();
    all_fail(&dir, &sub, "not a regular file");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn truncated() {
    let dir = scratch("bad-truncated");
    let (path, _) = synthetic_file(&dir, 500);
    let len = std::fs::metadata(&path).unwrap().len();
    let f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.set_len(len / 2).unwrap();
    all_fail(&dir, &path, "truncated");
    // Shorter than a header, with the magic: still "truncated".
    f.set_len(64).unwrap();
    all_fail(&dir, &path, "truncated");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn wrong_version() {
    let dir = scratch("bad-version");
    let (path, _) = synthetic_file(&dir, 200);
    poke(&path, file_header::VERSION as u64, 99);
    all_fail(&dir, &path, "version 99");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corrupt_header() {
    let dir = scratch("bad-header");
    let (path, _) = synthetic_file(&dir, 200);
    poke(&path, file_header::RING_COUNT as u64, 0);
    all_fail(&dir, &path, "corrupt header: ring count 0");
    let (path, _) = synthetic_file(&dir, 200);
    poke(&path, file_header::RING_WORDS as u64, 1000);
    all_fail(&dir, &path, "corrupt header: ring size 1000");
    let (path, _) = synthetic_file(&dir, 200);
    poke(&path, file_header::STRINGS_OFFSET as u64, 12345);
    all_fail(&dir, &path, "strings offset");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_events_are_reported_and_the_rest_is_read() {
    let dir = scratch("bad-ring");
    let (path, written) = synthetic_file(&dir, 400);
    let p = path.to_str().unwrap();
    let rings = 5;
    let words = beamr_ringbuf::Cursor::open(&path)
        .unwrap()
        .info()
        .ring_words;
    let g = Geometry::new(rings, words, 1 << 20);
    // Garble the third event header of ring 2: category 0xff does not exist.
    let pos = event_word(&path, &g, 2, 2);
    poke(&path, pos, read_word(&path, pos) | 0xff00);
    let at = pos - g.ring_data_word(2) as u64;
    let result = run(&["trace", "dump", p]);
    assert_one_line_error(
        &result,
        &format!(
            "ring 2 is corrupt at word {at}: unknown event category (1 event lost to it, not decoded)"
        ),
    );
    // Everything else was still printed: ring 2's events after the damaged
    // one too.
    let stdout = String::from_utf8_lossy(&result.stdout);
    let printed = stdout.lines().filter(|l| !l.starts_with('#')).count() as u64;
    assert_eq!(printed, written.total() - 1, "{stdout}");
    assert!(stdout.contains("# s2: 1 events lost"), "{stdout}");
    for args in [
        &["trace", "stats", p][..],
        &[
            "trace",
            "export",
            p,
            "-o",
            dir.join("o.json").to_str().unwrap(),
        ],
        &[
            "trace",
            "flame",
            p,
            "-o",
            dir.join("o.svg").to_str().unwrap(),
        ],
    ] {
        assert_one_line_error(&run(args), "ring 2 is corrupt");
    }
    // stats still prints its report, and counts the damaged event lost.
    let stats = run(&["trace", "stats", "--format", "json", p]);
    let v: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(v["per_ring"][2]["read"].as_u64(), Some(written.ring(2) - 1));
    assert_eq!(v["per_ring"][2]["lost"], 1);
    assert_eq!(v["per_ring"][2]["damaged"], 1);
    assert_eq!(v["damaged"], 1);
    let text = run(&["trace", "stats", p]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("1 lost (1 of them damaged: bad checksum or impossible header, not decoded)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_flipped_bit_in_an_event_is_a_bad_checksum_not_a_different_event() {
    let dir = scratch("bad-bit");
    let (path, written) = synthetic_file(&dir, 400);
    let p = path.to_str().unwrap();
    let good = ok_stdout(&["trace", "dump", p]);
    let words = beamr_ringbuf::Cursor::open(&path)
        .unwrap()
        .info()
        .ring_words;
    let g = Geometry::new(5, words, 1 << 20);
    // One bit of the fifth event of ring 1's first payload word (its
    // process): before checksums, this printed another process.
    let pos = event_word(&path, &g, 1, 4) + 2;
    poke(&path, pos, read_word(&path, pos) ^ 1 << 3);
    let result = run(&["trace", "dump", p]);
    assert_one_line_error(&result, "ring 1 is corrupt at word");
    assert_one_line_error(&result, "bad checksum (1 event lost to it, not decoded)");
    let stdout = String::from_utf8_lossy(&result.stdout);
    let printed: Vec<&str> = stdout.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(printed.len() as u64, written.total() - 1);
    // Every line printed is a line of the good file's dump.
    let good: std::collections::HashSet<&str> = good.lines().collect();
    for line in printed {
        assert!(good.contains(line), "made up: {line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn impossible_ring_header_counts_are_corruption() {
    let dir = scratch("bad-ring-header");
    let words = |path: &Path| beamr_ringbuf::Cursor::open(path).unwrap().info().ring_words;
    // A count of 2^64 - 1 events: never reported as that many lost.
    let (path, _) = synthetic_file(&dir, 200);
    let g = Geometry::new(5, words(&path), 1 << 20);
    poke(&path, g.ring_header_word(3, 9) as u64, u64::MAX);
    all_fail(
        &dir,
        &path,
        "corrupt header: ring 3 header: tail_seq 18446744073709551615 counts more events",
    );
    let (path, _) = synthetic_file(&dir, 200);
    poke(&path, g.ring_header_word(1, 0) as u64, 1 << 40);
    all_fail(
        &dir,
        &path,
        "ring 1 header: head 1099511627776 is past tail",
    );
    let (path, _) = synthetic_file(&dir, 200);
    poke(&path, file_header::EVENTS_DROPPED as u64, u64::MAX);
    all_fail(&dir, &path, "events_dropped is 18446744073709551615");
    // A count a little too high passes those checks, but the ring's
    // events do not reach it.
    let (path, _) = synthetic_file(&dir, 200);
    let tail_seq = read_word(&path, g.ring_header_word(2, 9) as u64);
    poke(&path, g.ring_header_word(2, 9) as u64, tail_seq + 5);
    let p = path.to_str().unwrap();
    assert_one_line_error(
        &run(&["trace", "stats", p]),
        &format!(
            "ring 2 is corrupt at word {}: the ring header's event count (tail_seq) is {}",
            read_word(&path, g.ring_header_word(2, 8) as u64),
            tail_seq + 5
        ),
    );
    let _ = std::fs::remove_dir_all(&dir);
}
