//! gleam_stdlib's own test suite run as its developers run it: `gleam
//! test` in the package (which carries its own copy of gleeunit), on erl
//! 27 and then with `beamr shim`'s launchers first on the PATH. Its
//! outcomes are compared test by test ([`Outcomes`]), then the whole
//! output byte for byte, the exit status, and the modules each build
//! wrote.

use super::gleeunit_output::Outcomes;
use super::{beams, ran};
use crate::gleam_suites::copy_dir;
use crate::{Error, Result};
use std::fs;
use std::path::Path;

/// Runs the comparison in `work` (a directory inside `otp_root`, seen as
/// `work_in` from inside it), with the `gleam` compiler at `gleam_in` and
/// the launchers in `shim_in` (both paths inside the root), on the
/// gleam_stdlib in `packages`. Each difference found is one string.
pub fn compare(
    otp_root: &Path,
    packages: &Path,
    work: &Path,
    work_in: &Path,
    gleam_in: &Path,
    shim_in: &Path,
) -> Result<Vec<String>> {
    let package = work.join("gleam_stdlib");
    let _ = fs::remove_dir_all(&package);
    copy_dir(&packages.join("gleam_stdlib"), &package)?;
    let test = format!(
        "cd {} && rm -rf build manifest.toml && {} test",
        work_in.join("gleam_stdlib").display(),
        gleam_in.display()
    );
    let erl = ran(otp_root, &test)?;
    let erl_build = beams(&package.join("build/dev/erlang"))?;
    let ours = ran(
        otp_root,
        &format!("PATH={}:$PATH; {test}", shim_in.display()),
    )?;
    let our_build = beams(&package.join("build/dev/erlang"))?;
    let _ = fs::remove_dir_all(&package);

    let (erl_outcomes, our_outcomes) = (Outcomes::parse(&erl.0), Outcomes::parse(&ours.0));
    if erl_outcomes.passed == 0 {
        return Err(Error::new(format!(
            "gleam_stdlib's gleam test passed no test on erl 27 (status {}): {:?}",
            erl.1, erl.0
        )));
    }
    if erl_outcomes.cut_short() || our_outcomes.cut_short() {
        // A test ran past EUnit's time limit (5 s) and EUnit cancelled the
        // rest: a matter of speed on a loaded machine (beamr's is issue
        // 35), not of results. What ran is still compared: a test that
        // failed on one side failed the same way on the other, each side's
        // failures checked only where the other side ran all its tests.
        let mut found = Vec::new();
        if !erl_outcomes.cut_short() {
            found.extend(
                our_outcomes
                    .failures_not_in(&erl_outcomes)
                    .into_iter()
                    .map(|f| format!("gleam_stdlib's gleam test: failed on beamr only: {f}")),
            );
        }
        if !our_outcomes.cut_short() {
            found.extend(
                erl_outcomes
                    .failures_not_in(&our_outcomes)
                    .into_iter()
                    .map(|f| format!("gleam_stdlib's gleam test: failed on erl only: {f}")),
            );
        }
        println!(
            "gleam: gleam_stdlib's gleam test: EUnit cut a run short (a test past its 5 s limit): \
             erl 27 {:?}, through beamr's shim {:?}; the failures of what ran compared",
            erl_outcomes.summary, our_outcomes.summary
        );
        return Ok(found);
    }
    let mut found: Vec<String> = erl_outcomes
        .differences(&our_outcomes)
        .into_iter()
        .map(|d| format!("gleam_stdlib's gleam test: {d}"))
        .collect();
    if found.is_empty() && ours.0 != erl.0 {
        found.push(format!(
            "gleam_stdlib's gleam test: the same outcomes, other output: erl 27 {:?}, beamr {:?}",
            first_difference(&erl.0, &ours.0),
            first_difference(&ours.0, &erl.0)
        ));
    }
    if ours.1 != erl.1 {
        found.push(format!(
            "gleam_stdlib's gleam test: exit status {} on erl 27, {} through the shim",
            erl.1, ours.1
        ));
    }
    if our_build != erl_build {
        found.push(format!(
            "gleam_stdlib's gleam test: erlc built {} modules, beamr's shim {}",
            erl_build.len(),
            our_build.len()
        ));
    }
    println!(
        "gleam: gleam_stdlib's gleam test: erl 27 {:?}, through beamr's shim {:?}",
        erl_outcomes.summary, our_outcomes.summary
    );
    Ok(found)
}

/// The line of `text` where it first differs from `other`, cut to 200
/// characters.
fn first_difference(text: &str, other: &str) -> String {
    let mut theirs = other.lines();
    text.lines()
        .find(|line| theirs.next() != Some(line))
        .unwrap_or("")
        .chars()
        .take(200)
        .collect()
}
