//! Shared by the tests that compare with `erl` through a fixture that
//! writes its results to a file: finding the compiled fixture, and running
//! `MODULE:main(File)` under `erl` to get the bytes it wrote.

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The folder holding `MODULE.beam`, compiled by `cargo xtask fixtures`.
pub fn beam_dir(module: &str) -> PathBuf {
    let root = std::env::var_os("BEAMR_FIXTURES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/fixtures"));
    let beam = root.join("beam");
    assert!(
        beam.join(format!("{module}.beam")).is_file(),
        "{module}.beam is missing in {}: run `cargo xtask fixtures` first (or set BEAMR_FIXTURES_DIR)",
        beam.display()
    );
    beam
}

/// Runs `MODULE:main(File)` under `erl` and returns what it wrote to File.
pub fn erl_written(module: &str) -> Vec<u8> {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let run = RUNS.fetch_add(1, Ordering::Relaxed);
    let out = std::env::temp_dir().join(format!("beamr_{module}_{}_{run}.bin", std::process::id()));
    let eval = format!("{module}:main(\"{}\")", out.display());
    let status = Command::new("erl")
        .args(["-noshell", "-pa"])
        .arg(beam_dir(module))
        .args(["-eval", &eval, "-s", "init", "stop"])
        .status()
        .expect("running erl (is Erlang/OTP installed and on the PATH?)");
    assert!(status.success(), "erl failed on {module}: {status}");
    let bytes = std::fs::read(&out).expect("reading what erl wrote");
    let _ = std::fs::remove_file(&out);
    bytes
}
