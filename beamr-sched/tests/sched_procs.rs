//! Processes, messages, links, monitors, timers and names against `erl`:
//! each case of the `sched_procs` fixture ends with `exit(Result)`, and the
//! exit reason of its process must print the same with `~w` on both.

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
    let mut failures = Vec::new();
    let only = std::env::var("BEAMR_CASE").ok();
    for (case, want) in CASES.iter().zip(&expected) {
        if only.as_deref().is_some_and(|o| o != *case) {
            continue;
        }
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
