//! Shared by the ETF tests: finding the compiled Erlang fixtures, running
//! `erl` on them, and scratch directories.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Where `cargo xtask fixtures` put the compiled fixtures' `.beam` files.
pub fn beam_dir() -> PathBuf {
    let root = match std::env::var_os("BEAMR_FIXTURES_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/fixtures"),
    };
    let beam = root.join("beam");
    assert!(
        beam.join("etf_corpus.beam").is_file(),
        "{} has no etf_corpus.beam: run `cargo xtask fixtures` first",
        beam.display()
    );
    beam
}

/// Runs `erl -noshell -pa <fixtures> -eval EXPR -s init stop` and returns
/// its standard output, failing the test if erl fails.
pub fn erl_eval(expr: &str) -> String {
    let output = Command::new("erl")
        .args(["-noshell", "-pa"])
        .arg(beam_dir())
        .args(["-eval", expr, "-s", "init", "stop"])
        .output()
        .expect("erl must be installed (Erlang/OTP 25)");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success() && !stdout.contains("init terminating"),
        "erl -eval {expr:?} failed: {}\n{}",
        stdout,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// A fresh, empty scratch directory named after `what` and this process.
pub fn scratch_dir(what: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beamr-etf-{what}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// An Erlang string literal for a path.
pub fn erl_string(path: &Path) -> String {
    format!("{:?}", path.display().to_string())
}
