//! What a Gleam suite said about each of its tests, and how erl's and
//! beamr's accounts compare.
//!
//! `tests/gleam/beamr_gleam_suite.erl` runs a suite through EUnit and
//! prints a line `TEST <key> <outcome>` per test (see its header). Here
//! those lines become a [`Report`], and two reports are compared test by
//! test:
//!
//! - a test with the same outcome on both (its captured output included)
//!   is the same;
//! - a test that timed out on erl is erl's timeout, never a difference:
//!   it says how loaded the machine was, not what beamr does; so are the
//!   tests that only beamr ran after erl gave up on a module;
//! - anything else is a [`Difference`] named by the test: beamr failing
//!   or timing out where erl passed, failing with another error, printing
//!   other output, or not running a test that erl ran.
//!
//! The lines that are not a test's (logger reports already cut) must be
//! the same byte for byte, but for the runner's `GROUP ... cancelled`
//! lines: a group EUnit gave up on is the consequence of a test's outcome
//! (one that timed out or was killed), which is compared as that test's.

use std::collections::BTreeMap;

/// The prefix of a test's line.
const TEST_PREFIX: &str = "TEST ";

/// The prefix of the line of a group EUnit gave up on.
const GROUP_PREFIX: &str = "GROUP ";

/// The outcome the runner prints for a test EUnit stopped at its time limit.
pub const TIMED_OUT: &str = "timed out";

/// One runtime's account of a suite.
#[derive(Debug, Default, PartialEq)]
pub struct Report {
    /// Each test's key (`module:function/arity`) and outcome, in the
    /// order they ran.
    pub tests: Vec<(String, String)>,
    /// The groups EUnit gave up on, in order.
    pub groups: Vec<String>,
    /// Every other line, in order, each ending in a newline.
    pub rest: String,
}

impl Report {
    /// Reads the runner's output.
    pub fn parse(output: &str) -> Report {
        let mut report = Report::default();
        for line in output.lines() {
            match line
                .strip_prefix(TEST_PREFIX)
                .and_then(|rest| rest.split_once(' '))
            {
                Some((key, outcome)) => report.tests.push((key.to_string(), outcome.to_string())),
                None if line.starts_with(GROUP_PREFIX) => report.groups.push(line.to_string()),
                None => {
                    report.rest.push_str(line);
                    report.rest.push('\n');
                }
            }
        }
        report
    }

    /// How many tests ended with each outcome's first word (`passed`,
    /// `failed`, `timed`, ...), as `N passed, N failed`.
    pub fn tally(&self) -> String {
        let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, outcome) in &self.tests {
            let word = outcome.split(' ').next().unwrap_or("");
            let word = if word == "timed" { TIMED_OUT } else { word };
            *counts.entry(word).or_default() += 1;
        }
        if counts.is_empty() {
            return "no tests".into();
        }
        let parts: Vec<String> = counts.iter().map(|(w, n)| format!("{n} {w}")).collect();
        format!("{} tests: {}", self.tests.len(), parts.join(", "))
    }

    /// Each test's outcome by its key, for looking tests up.
    fn by_key(&self) -> BTreeMap<&str, &str> {
        self.tests
            .iter()
            .map(|(k, outcome)| (k.as_str(), outcome.as_str()))
            .collect()
    }

    fn timed_out(&self) -> bool {
        self.tests.iter().any(|(_, outcome)| outcome == TIMED_OUT)
    }
}

/// One way beamr's account departs from erl's.
#[derive(Debug, PartialEq)]
pub enum Difference {
    /// A test both ran, with other outcomes.
    Outcome {
        key: String,
        erl: String,
        beamr: String,
    },
    /// A test erl ran and beamr did not.
    NotRunOnBeamr { key: String, erl: String },
    /// A test beamr ran and erl, which timed out nowhere, did not.
    NotRunOnErl { key: String, beamr: String },
    /// The lines outside the tests differ.
    Rest { erl: String, beamr: String },
}

impl Difference {
    /// The test it is about, if any.
    pub fn key(&self) -> Option<&str> {
        match self {
            Difference::Outcome { key, .. }
            | Difference::NotRunOnBeamr { key, .. }
            | Difference::NotRunOnErl { key, .. } => Some(key),
            Difference::Rest { .. } => None,
        }
    }
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difference::Outcome { key, erl, beamr } => {
                write!(f, "{key}: erl {}, beamr {}", cut(erl), cut(beamr))
            }
            Difference::NotRunOnBeamr { key, erl } => {
                write!(f, "{key}: erl {}, beamr did not run it", cut(erl))
            }
            Difference::NotRunOnErl { key, beamr } => {
                write!(f, "{key}: beamr {}, erl did not run it", cut(beamr))
            }
            Difference::Rest { erl, beamr } => {
                let (e, b): (Vec<&str>, Vec<&str>) =
                    (erl.lines().collect(), beamr.lines().collect());
                let at = e
                    .iter()
                    .zip(&b)
                    .position(|(x, y)| x != y)
                    .unwrap_or(e.len().min(b.len()));
                write!(
                    f,
                    "the output outside the tests differs at its line {}: erl `{}`, beamr `{}`",
                    at + 1,
                    cut(e.get(at).copied().unwrap_or("(end)")),
                    cut(b.get(at).copied().unwrap_or("(end)"))
                )
            }
        }
    }
}

/// What comparing two reports found.
#[derive(Debug, Default, PartialEq)]
pub struct Comparison {
    /// Where beamr departs from erl.
    pub differences: Vec<Difference>,
    /// What is reported without counting as a difference: erl's timeouts,
    /// and tests only beamr ran after erl gave up on a module.
    pub notes: Vec<String>,
}

/// Compares beamr's report with erl's, test by test.
pub fn compare(erl: &Report, beamr: &Report) -> Comparison {
    let mut found = Comparison::default();
    let (erl_keys, beamr_keys) = (erl.by_key(), beamr.by_key());
    for (key, erl_outcome) in &erl.tests {
        let beamr_outcome = beamr_keys.get(key.as_str()).copied();
        match beamr_outcome {
            Some(b) if b == erl_outcome => {}
            _ if erl_outcome == TIMED_OUT => found.notes.push(format!(
                "{key}: timed out on erl (beamr: {})",
                cut(beamr_outcome.unwrap_or("not run"))
            )),
            Some(b) => found.differences.push(Difference::Outcome {
                key: key.clone(),
                erl: erl_outcome.clone(),
                beamr: b.to_string(),
            }),
            None => found.differences.push(Difference::NotRunOnBeamr {
                key: key.clone(),
                erl: erl_outcome.clone(),
            }),
        }
    }
    for (key, beamr_outcome) in &beamr.tests {
        if erl_keys.contains_key(key.as_str()) {
            continue;
        }
        if erl.timed_out() {
            found.notes.push(format!(
                "{key}: not run on erl after its timeout (beamr: {})",
                cut(beamr_outcome)
            ));
        } else {
            found.differences.push(Difference::NotRunOnErl {
                key: key.clone(),
                beamr: beamr_outcome.clone(),
            });
        }
    }
    if erl.groups != beamr.groups {
        found.notes.push(format!(
            "EUnit gave up on other groups: erl {:?}, beamr {:?}",
            erl.groups, beamr.groups
        ));
    }
    if erl.rest != beamr.rest {
        found.differences.push(Difference::Rest {
            erl: erl.rest.clone(),
            beamr: beamr.rest.clone(),
        });
    }
    found
}

/// The `Module:Function` that runs the test `key` alone, where it is a
/// plain test function (`module:function/0`); `None` for a test that a
/// generator made, which cannot be named on its own.
pub fn rerun_name(key: &str) -> Option<String> {
    let (module, rest) = key.split_once(':')?;
    let function = rest.strip_suffix("/0")?;
    if function.starts_with('-') || function.contains(['#', '/']) {
        return None;
    }
    Some(format!("{module}:{function}"))
}

/// At most 300 characters of `text`.
fn cut(text: &str) -> String {
    let mut cut: String = text.chars().take(300).collect();
    if cut.len() < text.len() {
        cut.push_str("...");
    }
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(lines: &str) -> Report {
        Report::parse(lines)
    }

    #[test]
    fn lines_become_tests_and_the_rest() {
        let r = report("TEST m:a/0 passed\nGROUP x cancelled y\nTEST m:b/0 failed error:x output <<\"hi\">>\nSUITE done\n");
        assert_eq!(
            r.tests,
            [
                ("m:a/0".to_string(), "passed".to_string()),
                (
                    "m:b/0".to_string(),
                    "failed error:x output <<\"hi\">>".to_string()
                )
            ]
        );
        assert_eq!(r.groups, ["GROUP x cancelled y"]);
        assert_eq!(r.rest, "SUITE done\n");
        assert_eq!(r.tally(), "2 tests: 1 failed, 1 passed");
    }

    #[test]
    fn the_same_outcomes_are_no_difference() {
        let out = "TEST m:a/0 passed\nTEST m:b/0 failed error:x\nSUITE done\n";
        assert_eq!(compare(&report(out), &report(out)), Comparison::default());
    }

    #[test]
    fn beamr_timing_out_where_erl_passes_is_named() {
        let erl = report("TEST m:a/0 passed\nTEST m:b/0 passed\n");
        let beamr = report("TEST m:a/0 timed out\n");
        let found = compare(&erl, &beamr);
        assert_eq!(
            found.differences,
            [
                Difference::Outcome {
                    key: "m:a/0".into(),
                    erl: "passed".into(),
                    beamr: TIMED_OUT.into()
                },
                Difference::NotRunOnBeamr {
                    key: "m:b/0".into(),
                    erl: "passed".into()
                }
            ]
        );
        assert_eq!(
            found.differences[0].to_string(),
            "m:a/0: erl passed, beamr timed out"
        );
    }

    #[test]
    fn erl_timing_out_is_a_note_and_so_are_the_tests_it_abandoned() {
        let erl = report("TEST m:a/0 timed out\n");
        let beamr = report("TEST m:a/0 passed\nTEST m:b/0 passed\n");
        let found = compare(&erl, &beamr);
        assert!(found.differences.is_empty(), "{:?}", found.differences);
        assert_eq!(found.notes.len(), 2);
    }

    #[test]
    fn another_error_or_other_output_is_a_difference() {
        let erl = report("TEST m:a/0 failed error:x\nTEST m:b/0 passed output <<\"1\">>\n");
        let beamr = report("TEST m:a/0 failed error:y\nTEST m:b/0 passed output <<\"2\">>\n");
        let keys: Vec<_> = compare(&erl, &beamr)
            .differences
            .iter()
            .map(|d| d.key().map(str::to_string))
            .collect();
        assert_eq!(keys, [Some("m:a/0".into()), Some("m:b/0".into())]);
    }

    #[test]
    fn extra_tests_count_unless_erl_timed_out() {
        let erl = report("TEST m:a/0 passed\n");
        let beamr = report("TEST m:a/0 passed\nTEST m:z/0 passed\n");
        assert_eq!(
            compare(&erl, &beamr).differences,
            [Difference::NotRunOnErl {
                key: "m:z/0".into(),
                beamr: "passed".into()
            }]
        );
    }

    #[test]
    fn the_rest_is_compared_byte_for_byte() {
        let found = compare(&report("SUITE done\n"), &report("oops\nSUITE done\n"));
        assert_eq!(found.differences.len(), 1);
        assert!(found.differences[0].to_string().contains("line 1"));
    }

    #[test]
    fn only_plain_test_functions_can_be_run_alone() {
        assert_eq!(
            rerun_name("gleam@list_test:sort_test/0").as_deref(),
            Some("gleam@list_test:sort_test")
        );
        assert_eq!(rerun_name("m:-g_test_/0-fun-1-/0"), None);
        assert_eq!(rerun_name("m:a_test/0#2"), None);
        assert_eq!(rerun_name("m:a/1"), None);
    }
}
