//! ETS against `erl`: every result of the `ets_cases` fixture (tables of
//! each type, errors, match specifications, traversal, counters, info,
//! owners and heirs) must print the same with `~w`. On beamr the cases run
//! in a process of a full runtime (two schedulers), which exits with
//! `{cases, Results}`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::format::display_w;
use beamr_sched::code::{otp_lib_dirs, CodePath};
use beamr_sched::runtime::Runtime;

fn fixtures(module: &str) -> PathBuf {
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

fn erl_lines(beam: &Path, module: &str) -> Vec<String> {
    let out = Command::new("erl")
        .arg("-noshell")
        .arg("-pa")
        .arg(beam)
        .arg("-eval")
        .arg(format!(
            "[io:format(\"~w~n\", [X]) || X <- {module}:cases()], halt()."
        ))
        .output()
        .expect("erl runs");
    assert!(
        out.status.success(),
        "erl failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

fn beamr_lines(beam: &Path, module: &str) -> Vec<String> {
    let mut path = CodePath::new();
    path.push(beam);
    for dir in otp_lib_dirs() {
        path.push(dir);
    }
    let rt = Arc::new(Runtime::new(path));
    let reason = rt
        .run_main(
            Atom::new(module).unwrap(),
            Atom::new("main").unwrap(),
            &[],
            2,
        )
        .expect("fixture loads");
    let t = reason.term;
    let parts = t
        .as_tuple()
        .unwrap_or_else(|| panic!("{module}:main crashed: {}", display_w(t)));
    assert_eq!(
        parts[0],
        beamr_core::term::Term::atom(Atom::new("cases").unwrap()),
        "{module}:main crashed: {}",
        display_w(t)
    );
    parts[1]
        .list_to_vec()
        .expect("a list")
        .iter()
        .map(|&x| display_w(x).to_string())
        .collect()
}

#[test]
fn ets_cases_match_erl() {
    let beam = fixtures("ets_cases");
    let expected = erl_lines(&beam, "ets_cases");
    let got = beamr_lines(&beam, "ets_cases");
    let mut failures = Vec::new();
    for (i, e) in expected.iter().enumerate() {
        match got.get(i) {
            Some(g) if g == e => {}
            Some(g) => failures.push(format!("case {}: beamr {g}\n          erl   {e}", i + 1)),
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
        "{} of {} cases differ:\n{}",
        failures.len(),
        expected.len(),
        failures.join("\n")
    );
    assert!(expected.len() > 150, "too few cases: {}", expected.len());
}
