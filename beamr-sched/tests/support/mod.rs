//! What beamr-sched's integration tests share: where the compiled fixtures
//! are, a runtime loading them (and the local OTP), running `erl` on them,
//! and comparing per-case results. The BIF and map tests use the whole
//! harness: a fixture function returns a list of results (one per case,
//! errors caught as `{'EXIT', Reason}`); it runs on `erl` and on beamr, and
//! each element's `~w` text must match.
//!
//! Each test binary uses part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use beamr_core::atom::Atom;
use beamr_core::format::display_w;
use beamr_core::term::Term;
use beamr_sched::code::{otp_lib_dirs, CodePath};
use beamr_sched::interp::Outcome;
use beamr_sched::process::Process;
use beamr_sched::runtime::Runtime;

/// The compiled fixtures' directory; panics with a hint when `module` is missing.
pub fn fixtures(module: &str) -> PathBuf {
    let dir = std::env::var_os("BEAMR_FIXTURES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/fixtures"));
    let beam = dir.join("beam");
    assert!(
        beam.join(format!("{module}.beam")).is_file(),
        "fixture {module} missing in {}: run `cargo xtask fixtures`",
        beam.display()
    );
    beam
}

/// The code path of a test runtime: the fixtures, then the local OTP.
pub fn code_path(beam: &Path) -> CodePath {
    let mut path = CodePath::new();
    path.push(beam);
    for dir in otp_lib_dirs() {
        path.push(dir);
    }
    path
}

/// The lines `erl` prints evaluating `expr` with the fixtures on its path
/// (then it halts). Output bytes are read as Latin-1, as erl writes the
/// characters above 127 of atoms.
pub fn erl_eval(beam: &Path, expr: &str) -> Vec<String> {
    let out = Command::new("erl")
        .arg("-noshell")
        .arg("-pa")
        .arg(beam)
        .arg("-eval")
        .arg(format!("{expr}, halt()."))
        .output()
        .expect("erl runs");
    assert!(
        out.status.success(),
        "erl failed on {expr}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text: String = out.stdout.iter().map(|&b| b as char).collect();
    text.lines().map(str::to_string).collect()
}

/// Each element of `module:function()` as `erl` prints it with `~w`.
fn erl_lines(beam: &Path, module: &str, function: &str) -> Vec<String> {
    erl_eval(
        beam,
        &format!("[io:format(\"~w~n\", [X]) || X <- {module}:{function}()]"),
    )
}

/// Each element of `module:function()` run on beamr, written with `~w`.
fn beamr_lines(beam: &Path, module: &str, function: &str) -> Vec<String> {
    let rt = Runtime::new(code_path(beam));
    let mut p = Process::new(Term::pid(1));
    let outcome = rt
        .call_in(
            &mut p,
            Atom::new(module).unwrap(),
            Atom::new(function).unwrap(),
            &[],
        )
        .expect("fixture loads");
    match outcome {
        Outcome::Returned => {}
        other => panic!("{module}:{function} did not return: {other:?}"),
    }
    let list = p.returned_value().list_to_vec().expect("a list of results");
    list.iter().map(|&t| display_w(t).to_string()).collect()
}

/// Runs `module:function()` on both and asserts every case matches.
pub fn assert_cases_match(module: &str, function: &str) {
    let beam = fixtures(module);
    let expected = erl_lines(&beam, module, function);
    let got = beamr_lines(&beam, module, function);
    assert_lines_match(&format!("{module}:{function}"), &expected, &got, 10);
}

/// Asserts that beamr's per-case lines equal erl's, naming each case that
/// differs, and that there are more than `min_cases` of them.
pub fn assert_lines_match(what: &str, expected: &[String], got: &[String], min_cases: usize) {
    let mut failures = Vec::new();
    for (i, e) in expected.iter().enumerate() {
        match got.get(i) {
            Some(g) if g == e => {}
            Some(g) => failures.push(format!("case {}: beamr {g}\n        erl   {e}", i + 1)),
            None => failures.push(format!("case {}: missing on beamr (erl {e})", i + 1)),
        }
    }
    if got.len() != expected.len() {
        failures.push(format!(
            "{} results on beamr, {} on erl",
            got.len(),
            expected.len()
        ));
    }
    assert!(
        failures.is_empty(),
        "{what}: {} of {} cases differ:\n{}",
        failures.len(),
        expected.len(),
        failures
            .iter()
            .take(40)
            .map(|f| f.chars().take(600).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        expected.len() > min_cases,
        "{what}: too few cases ({})",
        expected.len()
    );
}
