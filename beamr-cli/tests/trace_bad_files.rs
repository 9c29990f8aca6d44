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
fn corrupt_ring_data_is_reported_after_the_good_rings() {
    let dir = scratch("bad-ring");
    let (path, written) = synthetic_file(&dir, 400);
    let p = path.to_str().unwrap();
    let rings = 5;
    let words = beamr_ringbuf::Cursor::open(&path)
        .unwrap()
        .info()
        .ring_words;
    let g = Geometry::new(rings, words, 1 << 20);
    // Garble the third event header of ring 2.
    let first = g.ring_data_word(2) as u64;
    // Find the third event by walking the lengths in the header words.
    let bytes = std::fs::read(&path).unwrap();
    let word = |i: u64| {
        let i = i as usize * 8;
        u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap())
    };
    let mut pos = first;
    for _ in 0..2 {
        pos += word(pos) & 0xff;
    }
    // Category 0xff does not exist.
    poke(&path, pos, word(pos) | 0xff00);
    let result = run(&["trace", "dump", p]);
    assert_one_line_error(&result, "ring 2 is corrupt at word");
    // Everything else was still printed: all other rings, and ring 2's
    // first two events.
    let stdout = String::from_utf8_lossy(&result.stdout);
    let printed = stdout.lines().filter(|l| !l.starts_with('#')).count() as u64;
    assert_eq!(printed, written.total() - written.ring(2) + 2, "{stdout}");
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
    // stats still prints its report, and counts the unread events lost.
    let stats = run(&["trace", "stats", "--format", "json", p]);
    let v: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(v["per_ring"][2]["read"], 2);
    assert_eq!(v["per_ring"][2]["lost"].as_u64(), Some(written.ring(2) - 2));
    let _ = std::fs::remove_dir_all(&dir);
}
