//! Helpers shared by the `beamr trace` tests: running the binary, making
//! synthetic trace files, poking words of a file.

#![allow(dead_code)]

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use beamr_ringbuf::synthetic::{self, Config, Written};

/// A fresh scratch directory for one test.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beamr-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The `beamr` binary under test.
pub fn beamr() -> Command {
    Command::new(env!("CARGO_BIN_EXE_beamr"))
}

/// Runs `beamr ARGS` to completion.
pub fn run(args: &[&str]) -> Output {
    beamr().args(args).output().expect("running beamr")
}

/// Standard output as text, asserting success.
pub fn ok_stdout(args: &[&str]) -> String {
    let out = run(args);
    assert!(
        out.status.success(),
        "beamr {args:?} failed ({:?}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

/// A synthetic trace of `n` events in `dir`, rings big enough to keep all.
pub fn synthetic_file(dir: &Path, n: u64) -> (PathBuf, Written) {
    let path = dir.join("synthetic.trace");
    let written = synthetic::write(&path, n).expect("writing the synthetic trace");
    assert_eq!(written.total(), n);
    (path, written)
}

/// A synthetic trace with `ring_words` per ring (small rings overwrite).
pub fn synthetic_with(dir: &Path, n: u64, ring_words: usize) -> (PathBuf, Written) {
    let path = dir.join(format!("synthetic-{ring_words}.trace"));
    let mut config = Config::new(&path, n);
    config.ring_words = ring_words;
    let written = synthetic::write_with(&config).expect("writing the synthetic trace");
    (path, written)
}

/// Overwrites the 64-bit word at index `word` of `path`.
pub fn poke(path: &Path, word: u64, value: u64) {
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(word * 8)).unwrap();
    f.write_all(&value.to_le_bytes()).unwrap();
}

/// The word index of the `n`th event header of ring `ring` of `path`.
pub fn event_word(path: &Path, g: &beamr_ringbuf::layout::Geometry, ring: usize, n: usize) -> u64 {
    let bytes = std::fs::read(path).unwrap();
    let mut pos = g.ring_data_word(ring) as u64;
    for _ in 0..n {
        pos += word_of(&bytes, pos) & 0xff;
    }
    pos
}

/// The 64-bit word at index `word` of `path`.
pub fn read_word(path: &Path, word: u64) -> u64 {
    word_of(&std::fs::read(path).unwrap(), word)
}

/// The 64-bit word at index `word` of a file's `bytes`.
fn word_of(bytes: &[u8], word: u64) -> u64 {
    let i = word as usize * 8;
    u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap())
}

/// Asserts that `out` is a failure with status 2 and exactly one line on
/// standard error, starting `beamr: ` and containing `needle`; no panic.
pub fn assert_one_line_error(out: &Output, needle: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(2),
        "status {:?}, stderr {err}",
        out.status
    );
    assert!(!err.contains("panicked"), "panic: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "not one line: {err:?}");
    assert!(lines[0].starts_with("beamr: "), "{err}");
    assert!(
        lines[0].contains(needle),
        "{:?} does not say {needle:?}",
        lines[0]
    );
}
