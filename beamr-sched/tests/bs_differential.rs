//! Binaries and the bit syntax against `erl`: every case of the `bs_*`
//! fixtures runs on both, and its result (or `{Class, Reason}`), printed
//! with `~w`, must be identical. One `erl` run per fixture prints all of
//! its cases, one per line.

use std::path::PathBuf;
use std::process::Command;

use beamr_core::atom::Atom;
use beamr_core::format::display_w;
use beamr_core::term::Term;
use beamr_sched::code::{otp_lib_dirs, CodePath};
use beamr_sched::interp::Outcome;
use beamr_sched::process::Process;
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

/// Each case's `~w` result on erl, in `cases()` order.
fn erl_lines(beam: &PathBuf, module: &str) -> Vec<String> {
    let out = Command::new("erl")
        .arg("-noshell")
        .arg("-pa")
        .arg(beam)
        .arg("-eval")
        .arg(format!(
            "[io:format(\"~w ~w~n\", [C, {module}:run(C)]) || C <- {module}:cases()], halt()."
        ))
        .output()
        .expect("erl runs");
    assert!(
        out.status.success(),
        "erl failed on {module}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    // `~w` writes atom text as Latin-1 bytes.
    let text: String = out.stdout.iter().map(|&b| b as char).collect();
    text.lines().map(str::to_string).collect()
}

fn call(
    rt: &Runtime,
    p: &mut Process,
    module: Atom,
    f: &str,
    args: &[Term],
) -> Result<Term, String> {
    match rt.call_in(p, module, Atom::new(f).unwrap(), args) {
        Ok(Outcome::Returned) => Ok(p.x[0]),
        Ok(other) => Err(format!("{other:?}")),
        Err(e) => Err(e.to_string()),
    }
}

/// Runs every case of `module` on beamr and compares with erl.
fn differential(module: &str) {
    let beam = fixtures(module);
    let expected = erl_lines(&beam, module);
    let mut path = CodePath::new();
    path.push(&beam);
    for dir in otp_lib_dirs() {
        path.push(dir);
    }
    let rt = Runtime::new(path);
    let m = Atom::new(module).unwrap();
    let mut p = Process::new(Term::pid(1));
    let cases = call(&rt, &mut p, m, "cases", &[]).expect("cases/0 runs");
    let cases: Vec<Term> = cases.iter_list().collect();
    assert_eq!(cases.len(), expected.len(), "erl printed one line per case");
    let mut failures = Vec::new();
    for (case, want) in cases.iter().zip(&expected) {
        let mut p = Process::new(Term::pid(1));
        let got = match call(&rt, &mut p, m, "run", &[*case]) {
            Ok(v) => format!("{} {}", display_w(*case), display_w(v)),
            Err(e) => format!("{} <beamr: {e}>", display_w(*case)),
        };
        if &got != want {
            failures.push(format!("  beamr: {got}\n  erl:   {want}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

#[test]
fn construction_matches_erl() {
    differential("bs_construct");
}

#[test]
fn matching_matches_erl() {
    differential("bs_match");
}

#[test]
fn bifs_match_erl() {
    differential("bs_bifs");
}
