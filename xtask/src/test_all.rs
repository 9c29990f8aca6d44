//! `cargo xtask test-all`: the one test command. `.ci/run` calls it.
//!
//! Steps, in order, stopping at the first failure:
//!
//! 1. `erlang`   `erl` and `erlc` on PATH (installed with apt-get as root)
//! 2. `fixtures` `tests/erlang/*.erl` compiled into `target/fixtures/`
//! 3. `fmt`      `cargo fmt --all -- --check`
//! 4. `clippy`   `cargo clippy --workspace --all-targets -- -D warnings`
//! 5. `test`     `cargo test --workspace` (unit, integration and doc tests)
//!
//! Cargo steps run with `BEAMR_FIXTURES_DIR` set to the fixtures' absolute
//! path. A summary of every step (ok, FAILED, skipped, with times) ends the
//! output either way.

use crate::fixtures::{self, ENV_VAR};
use crate::{erlang, process, Error, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const STEPS: [&str; 5] = ["erlang", "fixtures", "fmt", "clippy", "test"];

/// The cargo arguments of each cargo step.
const CARGO_STEPS: [(&str, &[&str]); 3] = [
    ("fmt", &["fmt", "--all", "--", "--check"]),
    (
        "clippy",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ],
    ),
    ("test", &["test", "--workspace"]),
];

enum Outcome {
    Ok(Duration),
    Failed(Duration),
    Skipped,
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
            cargo_step => cargo(root, cargo_step, &fixtures_dir),
        };
        let took = started.elapsed();
        if let Err(err) = result {
            outcomes.push((name, Outcome::Failed(took)));
            outcomes.extend(
                STEPS[index + 1..]
                    .iter()
                    .map(|&rest| (rest, Outcome::Skipped)),
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
    let (_, args) = CARGO_STEPS
        .iter()
        .find(|(name, _)| *name == step)
        .expect("every step other than erlang and fixtures is a cargo step");
    // `cargo xtask` runs under cargo, which says which cargo it is.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut cmd = Command::new(cargo);
    cmd.args(*args).current_dir(root).env(ENV_VAR, fixtures_dir);
    let result = process::run(&mut cmd);
    if result.is_err() && step == "fmt" {
        eprintln!("xtask: hint: if the diff above is formatting, `cargo fmt --all` fixes it");
    }
    result
}

fn summary(outcomes: &[(&str, Outcome)], total: Duration) {
    println!("\n==> test-all summary");
    for (name, outcome) in outcomes {
        let (word, took) = match outcome {
            Outcome::Ok(took) => ("ok", Some(took)),
            Outcome::Failed(took) => ("FAILED", Some(took)),
            Outcome::Skipped => ("skipped", None),
        };
        match took {
            Some(took) => println!("  {word:<8} {name:<9} {:>7.1}s", took.as_secs_f64()),
            None => println!("  {word:<8} {name}"),
        }
    }
    let passed = outcomes
        .iter()
        .all(|(_, outcome)| matches!(outcome, Outcome::Ok(_)));
    let verdict = if passed { "passed" } else { "FAILED" };
    println!("test-all {verdict} in {:.1}s", total.as_secs_f64());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_after_fixtures_is_a_cargo_step() {
        let cargo_steps: Vec<&str> = CARGO_STEPS.iter().map(|(name, _)| *name).collect();
        assert_eq!(&STEPS[2..], cargo_steps.as_slice());
    }
}
