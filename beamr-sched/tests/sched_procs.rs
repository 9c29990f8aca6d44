//! Processes, messages, links, monitors, timers and names against `erl`:
//! each case of the `sched_procs` fixture ends with `exit(Result)`, and the
//! exit reason of its process must print the same with `~w` on both.
//!
//! `BEAMR_CASE=NAME[,NAME...]` runs only the named cases on beamr (erl
//! still runs them all). The selection is written to standard error (past
//! the test harness's capture) with the number of cases skipped, and a name
//! that is not a case fails the test: a filter never narrows a run silently
//! or down to nothing.

use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_sched::runtime::Runtime;

mod support;

const CASES: &[&str] = &[
    "ping",
    "ring",
    "links",
    "monitors",
    "trap",
    "timers",
    "names",
    "selective",
    "dict",
    "after_zero",
    "many",
    "spin",
    "kill",
];

/// The environment variable that selects cases (see the module's doc).
const CASE_VAR: &str = "BEAMR_CASE";

/// The indices in [`CASES`] that `filter` (the value of [`CASE_VAR`], if
/// set) selects: all without a filter, else each comma-separated name's.
/// An error when a name is no case, or the filter names none.
fn selected(filter: Option<&str>) -> Result<Vec<usize>, String> {
    let Some(filter) = filter else {
        return Ok((0..CASES.len()).collect());
    };
    let mut picked = Vec::new();
    for name in filter.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let Some(i) = CASES.iter().position(|c| *c == name) else {
            return Err(format!(
                "{CASE_VAR}={filter}: {name} is not a case; the cases are {}",
                CASES.join(", ")
            ));
        };
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    if picked.is_empty() {
        return Err(format!("{CASE_VAR}={filter:?} names no case"));
    }
    picked.sort_unstable();
    Ok(picked)
}

#[test]
fn case_filter_selects_or_fails() {
    assert_eq!(selected(None).unwrap().len(), CASES.len());
    assert_eq!(selected(Some("kill")).unwrap(), [CASES.len() - 1]);
    assert_eq!(selected(Some("ring, ping,ring")).unwrap(), [0, 1]);
    for bad in ["", " , ", "nope", "ping,nope", "Ping"] {
        let err = selected(Some(bad)).expect_err(bad);
        assert!(err.contains(CASE_VAR), "{bad:?}: {err}");
    }
}

/// Every case's exit reason on erl, one per line.
fn erl_reasons(beam: &PathBuf) -> Vec<String> {
    let calls: Vec<String> = CASES
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!(
                "begin P{i} = spawn_link(sched_procs, {c}, []), receive {{'EXIT', P{i}, R{i}}} -> io:format(\"~w~n\", [R{i}]) end end"
            )
        })
        .collect();
    let script = format!(
        "process_flag(trap_exit, true), {}, halt().",
        calls.join(", ")
    );
    let out = Command::new("erl")
        .arg("-noshell")
        .arg("-pa")
        .arg(beam)
        .arg("-eval")
        .arg(script)
        .output()
        .expect("erl runs");
    assert!(
        out.status.success(),
        "erl failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn exit_reasons_match_erl() {
    let beam = support::fixtures("sched_procs");
    let expected = erl_reasons(&beam);
    assert_eq!(expected.len(), CASES.len());
    let filter = std::env::var(CASE_VAR).ok();
    let picked = selected(filter.as_deref()).unwrap_or_else(|e| panic!("{e}"));
    if let Some(filter) = &filter {
        let names: Vec<&str> = picked.iter().map(|&i| CASES[i]).collect();
        // Straight to stderr: libtest captures `eprintln!` of passing tests.
        let _ = writeln!(
            std::io::stderr(),
            "\nsched_procs: {CASE_VAR}={filter} runs {} of {} cases ({}); {} skipped",
            picked.len(),
            CASES.len(),
            names.join(", "),
            CASES.len() - picked.len()
        );
    }
    let mut failures = Vec::new();
    for i in picked {
        let (case, want) = (CASES[i], &expected[i]);
        let rt = Arc::new(Runtime::new(support::code_path(&beam)));
        let reason = rt
            .run_main(
                Atom::new("sched_procs").unwrap(),
                Atom::new(case).unwrap(),
                &[],
                2,
            )
            .expect("runs");
        let got = beamr_core::format::display_w(reason.term).to_string();
        if &got != want {
            failures.push(format!("{case}: beamr {got} / erl {want}"));
        }
    }
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}
