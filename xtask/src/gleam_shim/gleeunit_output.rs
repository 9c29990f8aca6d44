//! What `gleam test` printed, read back test by test: gleeunit's
//! reporter prints a dot for each test that passes, a block naming the
//! test for each that fails (`assert FILE:LINE` then ` test: MOD.FUN`,
//! or `MOD.FUN` then `An unexpected error occurred:`), `MOD.FUN skipped`
//! for each skipped one, and a summary line (`N tests, no failures`,
//! `N passed, M failures`, ...). The colours are left out.

use std::collections::BTreeMap;

/// One run of a gleeunit suite, as its output tells it.
#[derive(Debug, Default, PartialEq)]
pub struct Outcomes {
    /// How many dots: the tests that passed.
    pub passed: usize,
    /// Each failed test, `MOD.FUN`, with the lines gleeunit printed for it.
    pub failed: BTreeMap<String, String>,
    /// The skipped tests, `MOD.FUN`.
    pub skipped: Vec<String>,
    /// The last line, gleeunit's count.
    pub summary: String,
}

impl Outcomes {
    /// Reads gleeunit's output, `text` (what follows `Running ...main`).
    pub fn parse(text: &str) -> Outcomes {
        let plain = without_colours(text);
        let mut outcomes = Outcomes::default();
        let mut current: Option<String> = None;
        let lines: Vec<&str> = plain.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let dots = line.len() - line.trim_start_matches('.').len();
            outcomes.passed += dots;
            if dots > 0 {
                // A passed test ends the block of the one before.
                current = None;
            }
            let line = &line[dots..];
            let next = lines.get(i + 1).copied().unwrap_or("");
            if let Some(name) = line.strip_prefix(" test: ") {
                // The header line before it belongs to this test too.
                let header = current
                    .take()
                    .and_then(|name| outcomes.failed.remove(&name))
                    .unwrap_or_default();
                outcomes
                    .failed
                    .insert(name.to_string(), format!("{header}{line}\n"));
                current = Some(name.to_string());
            } else if let Some(name) = line.strip_suffix(" skipped") {
                outcomes.skipped.push(name.to_string());
                current = None;
            } else if next == "An unexpected error occurred:" && is_test_name(line) {
                outcomes.failed.insert(line.to_string(), String::new());
                current = Some(line.to_string());
            } else if is_summary(line) {
                outcomes.summary = line.to_string();
                current = None;
            } else if is_failure_header(line) {
                // `assert FILE:LINE`: kept until its ` test:` line names it.
                outcomes.failed.insert(format!("?{i}"), format!("{line}\n"));
                current = Some(format!("?{i}"));
            } else if let Some(block) = current.as_ref().and_then(|n| outcomes.failed.get_mut(n)) {
                block.push_str(line);
                block.push('\n');
            }
        }
        outcomes
    }

    /// Whether EUnit cut the run short: gleeunit reports EUnit's
    /// cancellation of a test past its time limit, and of the groups
    /// around it, as a failure of `gleeunit.main` whose reason is
    /// `Timeout` or `Blame(...)`; the tests after it never ran.
    pub fn cut_short(&self) -> bool {
        self.failed.get(CANCELLED).is_some_and(|block| {
            block.contains("Reason(Timeout)") || block.contains("Reason(Blame(")
        })
    }

    /// The failed tests of `self` that did not fail the same way in
    /// `other`, leaving out EUnit's cancellations: what two runs that may
    /// have been cut short can still be compared on.
    pub fn failures_not_in(&self, other: &Outcomes) -> Vec<String> {
        self.failed
            .iter()
            .filter(|(name, block)| {
                name.as_str() != CANCELLED && other.failed.get(name.as_str()) != Some(block)
            })
            .map(|(name, block)| format!("{name}:\n{block}"))
            .collect()
    }

    /// The tests whose outcomes differ between `self` (erl's) and `ours`,
    /// each said in one line; empty when every test came out the same.
    pub fn differences(&self, ours: &Outcomes) -> Vec<String> {
        let mut found = Vec::new();
        for (name, block) in &self.failed {
            match ours.failed.get(name) {
                None => found.push(format!("{name} failed on erl only:\n{block}")),
                Some(b) if b != block => found.push(format!(
                    "{name} failed differently:\nerl:\n{block}beamr:\n{b}"
                )),
                Some(_) => {}
            }
        }
        for (name, block) in &ours.failed {
            if !self.failed.contains_key(name) {
                found.push(format!("{name} failed on beamr only:\n{block}"));
            }
        }
        if self.skipped != ours.skipped {
            found.push(format!(
                "skipped on erl {:?}, on beamr {:?}",
                self.skipped, ours.skipped
            ));
        }
        if self.passed != ours.passed || self.summary != ours.summary {
            found.push(format!(
                "erl: {} passed ({:?}); beamr: {} passed ({:?})",
                self.passed, self.summary, ours.passed, ours.summary
            ));
        }
        found
    }
}

/// The name gleeunit gives EUnit's cancellations.
const CANCELLED: &str = "gleeunit.main";

/// `MOD.FUN`, as gleeunit names a test (`gleam@list_test.map_test`).
fn is_test_name(line: &str) -> bool {
    line.split_once('.').is_some_and(|(module, function)| {
        let word = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '@')
        };
        word(module) && word(function)
    })
}

/// `panic|todo|assert|let assert FILE:LINE`.
fn is_failure_header(line: &str) -> bool {
    ["panic ", "todo ", "assert ", "let assert "]
        .iter()
        .any(|kind| line.strip_prefix(kind).is_some_and(|at| at.contains(':')))
}

fn is_summary(line: &str) -> bool {
    let Some((count, rest)) = line.split_once(' ') else {
        return false;
    };
    count.chars().all(|c| c.is_ascii_digit())
        && !count.is_empty()
        && (rest.starts_with("tests, ") || rest.starts_with("passed, "))
}

/// `text` without its ANSI colour sequences (`ESC [ ... m`).
fn without_colours(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GREEN_DOT: &str = "\u{1b}[32m.\u{1b}[39m";

    fn output(body: &str) -> String {
        format!("{GREEN_DOT}{GREEN_DOT}{body}")
    }

    #[test]
    fn dots_are_passes_and_the_count_is_the_summary() {
        let text = output("\n\u{1b}[32m\n2 tests, no failures\u{1b}[39m\n");
        let outcomes = Outcomes::parse(&text);
        assert_eq!(outcomes.passed, 2);
        assert!(outcomes.failed.is_empty());
        assert_eq!(outcomes.summary, "2 tests, no failures");
    }

    #[test]
    fn an_assert_failure_is_named_with_its_lines() {
        let text = output(
            "\n\u{1b}[1m\u{1b}[31massert\u{1b}[39m\u{1b}[22m \u{1b}[90mtest/a.gleam:7\u{1b}[39m\n\
             \u{1b}[36m test\u{1b}[39m: a_test.b_test\n\
             \u{1b}[36m info\u{1b}[39m: Assertion failed.\n\
             {GREEN_DOT}\n\u{1b}[31m\n3 passed, 1 failures\u{1b}[39m\n",
        )
        .replace("{GREEN_DOT}", GREEN_DOT);
        let outcomes = Outcomes::parse(&text);
        assert_eq!(outcomes.passed, 3);
        assert_eq!(
            outcomes.failed.get("a_test.b_test").map(String::as_str),
            Some("assert test/a.gleam:7\n test: a_test.b_test\n info: Assertion failed.\n")
        );
        assert_eq!(outcomes.summary, "3 passed, 1 failures");
    }

    #[test]
    fn an_unexpected_error_is_named_by_the_line_before_it() {
        let text = output(
            "\n\u{1b}[90ma_test.crash_test\u{1b}[39m\nAn unexpected error occurred:\n\n  badarg\n\
             \n2 passed, 1 failures\n",
        );
        let outcomes = Outcomes::parse(&text);
        let block = outcomes.failed.get("a_test.crash_test").unwrap();
        assert!(block.contains("  badarg"), "{block:?}");
    }

    #[test]
    fn a_cancellation_is_a_run_cut_short() {
        let cut = Outcomes::parse(&output(
            "\ngleeunit.main\nAn unexpected error occurred:\n\n  [Id([]), Reason(Blame([10, 237]))]\n\
             \n2 passed, 1 failures\n",
        ));
        assert!(cut.cut_short());
        let whole = Outcomes::parse(&output("\n2 tests, no failures\n"));
        assert!(!whole.cut_short());
        assert!(cut.failures_not_in(&whole).is_empty());
    }

    #[test]
    fn a_test_failing_on_one_side_only_is_named() {
        let erl = Outcomes::parse(&output("\n2 tests, no failures\n"));
        let ours = Outcomes::parse(&output(
            "\nassert test/a.gleam:1\n test: a_test.x_test\n\n2 passed, 1 failures\n",
        ));
        let differences = erl.differences(&ours);
        assert!(
            differences[0].starts_with("a_test.x_test failed on beamr only"),
            "{differences:?}"
        );
        assert!(erl.differences(&erl).is_empty());
    }
}
