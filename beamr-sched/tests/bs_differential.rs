//! Binaries and the bit syntax against `erl`: every case of the `bs_*`
//! fixtures runs on both, and its result (or `{Class, Reason}`), printed
//! with `~w`, must be identical. One `erl` run per fixture prints all of
//! its cases, one per line.

use beamr_core::atom::Atom;
use beamr_core::format::display_w;
use beamr_core::term::Term;
use beamr_sched::interp::Outcome;
use beamr_sched::process::Process;
use beamr_sched::runtime::Runtime;

mod support;

fn call(
    rt: &Runtime,
    p: &mut Process,
    module: Atom,
    f: &str,
    args: &[Term],
) -> Result<Term, String> {
    match rt.call_in(p, module, Atom::new(f).unwrap(), args) {
        Ok(Outcome::Returned) => Ok(p.returned_value()),
        Ok(other) => Err(format!("{other:?}")),
        Err(e) => Err(e.to_string()),
    }
}

/// Runs every case of `module` on beamr and compares with erl.
fn differential(module: &str) {
    let beam = support::fixtures(module);
    // Each case's `~w` result on erl, in `cases()` order.
    let expected = support::erl_eval(
        &beam,
        &format!("[io:format(\"~w ~w~n\", [C, {module}:run(C)]) || C <- {module}:cases()]"),
    );
    let rt = Runtime::new(support::code_path(&beam));
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
