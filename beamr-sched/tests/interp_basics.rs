//! The interpreter against `erl`: functions of the `sched_basics` fixture
//! run on both, and their results, printed with `~w`, must be identical.

use std::path::PathBuf;
use std::process::Command;

use beamr_core::atom::Atom;
use beamr_core::format::display_w;
use beamr_core::term::Term;
use beamr_sched::interp::Outcome;
use beamr_sched::process::Process;
use beamr_sched::runtime::Runtime;

mod support;

fn erl_w(beam: &PathBuf, call: &str) -> String {
    let out = Command::new("erl")
        .arg("-noshell")
        .arg("-pa")
        .arg(beam)
        .arg("-eval")
        .arg(format!("io:format(\"~w\", [{call}]), halt()."))
        .output()
        .expect("erl runs");
    assert!(
        out.status.success(),
        "erl failed on {call}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

const CASES: &[(&str, &[i64])] = &[
    ("fib", &[20]),
    ("sum", &[]),
    ("classify", &[5]),
    ("classify", &[500]),
    ("tuples", &[]),
    ("catches", &[]),
    ("funs", &[]),
    ("big", &[]),
    ("tail", &[1_000_000]),
    ("try_it", &[1]),
    ("try_it", &[2]),
    ("apply_it", &[]),
    ("floats", &[]),
];

#[test]
fn results_match_erl() {
    let beam = support::fixtures("sched_basics");
    let rt = Runtime::new(support::code_path(&beam));
    let module = Atom::new("sched_basics").unwrap();
    let mut failures = Vec::new();
    for (function, args) in CASES {
        let mut p = Process::new(Term::pid(1));
        let arg_terms: Vec<Term> = args.iter().map(|&a| p.heap.int(a)).collect();
        let arg_text: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let call = if *function == "sum" {
            "sched_basics:sum(lists:seq(1, 100))".to_string()
        } else {
            format!("sched_basics:{function}({})", arg_text.join(","))
        };
        let arg_terms = if *function == "sum" {
            let items: Vec<Term> = (1..=100).map(Term::small_unchecked).collect();
            vec![p.heap.list(&items)]
        } else {
            arg_terms
        };
        let expected = erl_w(&beam, &call);
        let outcome = rt
            .call_in(&mut p, module, Atom::new(function).unwrap(), &arg_terms)
            .expect("loads");
        let got = match outcome {
            Outcome::Returned => display_w(p.returned_value()).to_string(),
            other => format!("{other:?}"),
        };
        if got != expected {
            failures.push(format!("{call}: beamr {got} / erl {expected}"));
        }
    }
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}
