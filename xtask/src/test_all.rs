//! `cargo xtask test-all`: the one test command. `.ci/run` calls it.
//!
//! Steps, in order, stopping at the first failure:
//!
//! 1. `erlang`   `erl` and `erlc` on PATH (installed with apt-get as root)
//! 2. `fixtures` `tests/erlang/*.erl` compiled into `target/fixtures/`
//! 3. `fmt`      `cargo fmt --all -- --check`
//! 4. `clippy`   `cargo clippy --workspace --all-targets -- -D warnings`,
//!    then again with `--features probes-off` (the build `cargo xtask bench
//!    --probes` measures, every probe site compiled out)
//! 5. `test`     `cargo test --workspace` (unit, integration and doc tests;
//!    the differential suite against the host's OTP 25)
//! 6. `interp`   the differential suite again with native code off
//!    (`BEAMR_NATIVE=off`): the interpreter alone must match erl too
//! 7. `otp27`    the differential suite again against OTP 27, and
//! 8. `otp29`    against OTP 29, each in a Debian root under `target/otp/`
//!    (see [`otp_roots`]: made with debootstrap as root, then cached).
//!    Without root or network the step is skipped and the summary says
//!    why; only the suite's comparisons are repeated (`cargo test -p
//!    beamr-cli --test diff`), then the distribution tests with that
//!    release's erl as the peer (`--test dist_erl`).
//! 9. `gleam`    the Gleam libraries' test suites and a Gleam project on
//!    erl 27 and on beamr (see [`gleam_suites`]); skipped, saying why,
//!    without the Gleam compiler or the OTP 27 root.
//! 10. `fuzz`    every cargo-fuzz target for [`fuzz::TEST_ALL_SECONDS`]
//!     from its seed corpus (see [`fuzz`]; installs nightly and cargo-fuzz
//!     when missing); a crash fails the step, naming its reproducer.
//! 11. `difffuzz` [`difffuzz::TEST_ALL_PROGRAMS`] random programs from
//!     erlfuzz on erl and on beamr, against OTP 25 and 27 (see
//!     [`difffuzz`]); a divergence fails the step; skipped, saying why,
//!     without erlfuzz beside the workspace.
//!
//! Cargo steps run with `BEAMR_FIXTURES_DIR` set to the fixtures' absolute
//! path. A summary of every step (ok, FAILED, skipped, with times and the
//! reason for a skip) ends the output either way.

use crate::difffuzz;
use crate::fixtures::{self, ENV_VAR};
use crate::fuzz;
use crate::gleam_suites;
use crate::otp_roots::{self, Skip};
use crate::{erlang, process, Error, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const STEPS: [&str; 11] = [
    "erlang", "fixtures", "fmt", "clippy", "test", "interp", "otp27", "otp29", "gleam", "fuzz",
    "difffuzz",
];

/// The variable that points the differential suite at another OTP's root.
const DIFF_OTP_ROOT: &str = "BEAMR_DIFF_OTP_ROOT";

/// The variable that turns native code off (`loader::native`).
const NATIVE_SWITCH: &str = "BEAMR_NATIVE";

/// The variable that makes the distribution tests' erl peers run in
/// another OTP's root.
const DIST_OTP_ROOT: &str = "BEAMR_DIST_OTP_ROOT";

/// The cargo commands of each cargo step (their arguments), run in turn.
const CARGO_STEPS: [(&str, &[&[&str]]); 3] = [
    ("fmt", &[&["fmt", "--all", "--", "--check"]]),
    (
        "clippy",
        &[
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--features",
                "beamr-cli/probes-off",
                "--",
                "-D",
                "warnings",
            ],
        ],
    ),
    ("test", &[&["test", "--workspace"]]),
];

enum Outcome {
    Ok(Duration),
    Failed(Duration),
    /// Not run: an earlier step failed (`None`), or it could not be set up
    /// (the reason).
    Skipped(Option<String>),
}

pub fn run(root: &Path) -> Result<()> {
    let started = Instant::now();
    let mut outcomes = Vec::new();
    let result = run_steps(root, &mut outcomes);
    summary(&outcomes, started.elapsed());
    result
}

fn run_steps(root: &Path, outcomes: &mut Vec<(&'static str, Outcome)>) -> Result<()> {
    let mut fixtures_dir = PathBuf::new();
    for (index, &name) in STEPS.iter().enumerate() {
        println!("\n==> [{}/{}] {name}", index + 1, STEPS.len());
        let started = Instant::now();
        let result = match name {
            "erlang" => erlang::ensure(),
            "fixtures" => fixtures::build(root).map(|built| fixtures_dir = built.dir),
            "fuzz" => fuzz::run(
                root,
                &fuzz::Options {
                    seconds: fuzz::TEST_ALL_SECONDS,
                    only: Vec::new(),
                },
            ),
            "interp" => process::run(
                cargo_command(root, &fixtures_dir)
                    .args(["test", "-p", "beamr-cli", "--test", "diff"])
                    .env(NATIVE_SWITCH, "off"),
            ),
            "difffuzz" => match difffuzz::test_all(root) {
                Ok(result) => result,
                Err(Skip(why)) => {
                    println!("skipped: differential fuzzing: {why}");
                    outcomes.push((name, Outcome::Skipped(Some(why))));
                    continue;
                }
            },
            "gleam" => match gleam_suites::run(root) {
                Ok(result) => result,
                Err(Skip(why)) => {
                    println!("skipped: the Gleam suites: {why}");
                    outcomes.push((name, Outcome::Skipped(Some(why))));
                    continue;
                }
            },
            otp if otp.starts_with("otp") => match diff_otp(root, &otp[3..], &fixtures_dir) {
                Ok(result) => result,
                Err(Skip(why)) => {
                    println!(
                        "skipped: the differential suite against OTP {}: {why}",
                        &otp[3..]
                    );
                    outcomes.push((name, Outcome::Skipped(Some(why))));
                    continue;
                }
            },
            cargo_step => cargo(root, cargo_step, &fixtures_dir),
        };
        let took = started.elapsed();
        if let Err(err) = result {
            outcomes.push((name, Outcome::Failed(took)));
            outcomes.extend(
                STEPS[index + 1..]
                    .iter()
                    .map(|&rest| (rest, Outcome::Skipped(None))),
            );
            return Err(Error::new(format!(
                "test-all failed at step `{name}`: {err}"
            )));
        }
        outcomes.push((name, Outcome::Ok(took)));
    }
    Ok(())
}

fn cargo(root: &Path, step: &str, fixtures_dir: &Path) -> Result<()> {
    let (_, commands) = CARGO_STEPS
        .iter()
        .find(|(name, _)| *name == step)
        .expect("every step other than erlang and fixtures is a cargo step");
    let result = commands
        .iter()
        .try_for_each(|args| process::run(cargo_command(root, fixtures_dir).args(*args)));
    if result.is_err() && step == "fmt" {
        eprintln!("xtask: hint: if the diff above is formatting, `cargo fmt --all` fixes it");
    }
    result
}

/// The differential suite against OTP `release`, in its root (made if
/// missing), then the distribution tests with that release's erl as the
/// peer and the interactive shell's tests; a [`Skip`] when the root cannot
/// be had.
fn diff_otp(
    root: &Path,
    release: &str,
    fixtures_dir: &Path,
) -> std::result::Result<Result<()>, Skip> {
    let (_, suite) = otp_roots::RELEASES
        .iter()
        .find(|(r, _)| *r == release)
        .expect("every otpNN step names a release of otp_roots::RELEASES");
    let otp_root = otp_roots::ensure(root, release, suite)?;
    otp_roots::ensure_packages(&otp_root, &otp_roots::DIFF_PACKAGES)?;
    Ok(process::run(
        cargo_command(root, fixtures_dir)
            .args(["test", "-p", "beamr-cli", "--test", "diff"])
            .env(DIFF_OTP_ROOT, &otp_root),
    )
    .and_then(|()| {
        process::run(
            cargo_command(root, fixtures_dir)
                .args(["test", "-p", "beamr-cli", "--test", "dist_erl"])
                .env(DIST_OTP_ROOT, &otp_root),
        )
    })
    .and_then(|()| {
        // The interactive shell against each root made so far (the test
        // step ran before any existed on a fresh clone).
        process::run(cargo_command(root, fixtures_dir).args([
            "test",
            "-p",
            "beamr-cli",
            "--test",
            "shell_terminal",
        ]))
    }))
}

/// A cargo command in the workspace `root`, with the fixtures' directory
/// in [`ENV_VAR`].
fn cargo_command(root: &Path, fixtures_dir: &Path) -> Command {
    // `cargo xtask` runs under cargo, which says which cargo it is.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root).env(ENV_VAR, fixtures_dir);
    cmd
}

fn summary(outcomes: &[(&str, Outcome)], total: Duration) {
    println!("\n==> test-all summary");
    for (name, outcome) in outcomes {
        let (word, took) = match outcome {
            Outcome::Ok(took) => ("ok", Some(took)),
            Outcome::Failed(took) => ("FAILED", Some(took)),
            Outcome::Skipped(_) => ("skipped", None),
        };
        match (took, outcome) {
            (Some(took), _) => println!("  {word:<8} {name:<9} {:>7.1}s", took.as_secs_f64()),
            (None, Outcome::Skipped(Some(why))) => println!("  {word:<8} {name:<9} ({why})"),
            (None, _) => println!("  {word:<8} {name}"),
        }
    }
    // A step skipped for want of root or network does not fail the run.
    let passed = outcomes
        .iter()
        .all(|(_, outcome)| matches!(outcome, Outcome::Ok(_) | Outcome::Skipped(Some(_))));
    let verdict = if passed { "passed" } else { "FAILED" };
    println!("test-all {verdict} in {:.1}s", total.as_secs_f64());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_after_fixtures_is_a_cargo_step() {
        let cargo_steps: Vec<&str> = CARGO_STEPS.iter().map(|(name, _)| *name).collect();
        assert_eq!(&STEPS[2..5], cargo_steps.as_slice());
    }

    #[test]
    fn every_otp_step_names_a_release() {
        let steps: Vec<String> = otp_roots::RELEASES
            .iter()
            .map(|(release, _)| format!("otp{release}"))
            .collect();
        assert_eq!(&STEPS[6..8], steps.as_slice());
    }
}
