//! ETS against `erl`: every result of the `ets_cases` fixture (tables of
//! each type, errors, match specifications, traversal, counters, info,
//! owners and heirs) must print the same with `~w`. On beamr the cases run
//! in a process of a full runtime (two schedulers), which exits with
//! `{cases, Results}`.

use std::path::Path;
use std::sync::Arc;

use beamr_core::atom::Atom;
use beamr_core::format::display_w;
use beamr_sched::runtime::Runtime;

mod support;

fn beamr_lines(beam: &Path, module: &str) -> Vec<String> {
    let rt = Arc::new(Runtime::new(support::code_path(beam)));
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
    let beam = support::fixtures("ets_cases");
    let expected = support::erl_eval(
        &beam,
        "[io:format(\"~w~n\", [X]) || X <- ets_cases:cases()]",
    );
    let got = beamr_lines(&beam, "ets_cases");
    support::assert_lines_match("ets_cases", &expected, &got, 150);
}
