//! `cargo xtask loom [--preemptions N]`: the scheduling protocols' loom
//! models (`beamr-sched/src/loom_models.rs`: the process state word and
//! inbox, and the schedulers' sleep and wake-up) through every interleaving
//! with at most N preemptions per execution (default 3).
//!
//! They build with `--cfg loom` (so `beamr-sched/src/sync.rs` gives them
//! loom's atomics and locks) in a target directory of their own,
//! `target/loom/`, so the normal build is not rebuilt afterwards.

use crate::{process, Error, Result};
use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

/// Preemptions per execution when none is given: enough for the models'
/// known bug (a lost wake-up needs two), small enough to finish in seconds.
pub const DEFAULT_PREEMPTIONS: u32 = 3;

/// Parses `[--preemptions N]`.
pub fn parse(args: &[OsString]) -> Result<u32> {
    match args {
        [] => Ok(DEFAULT_PREEMPTIONS),
        [flag, n] if flag == "--preemptions" => n
            .to_str()
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| Error::new(format!("--preemptions wants a number, not {n:?}"))),
        _ => Err(Error::new("usage: cargo xtask loom [--preemptions N]")),
    }
}

/// Runs the models; fails when loom finds an execution that breaks one.
pub fn run(root: &Path, preemptions: u32) -> Result<()> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    process::run(
        Command::new(cargo)
            .current_dir(root)
            .env("RUSTFLAGS", "--cfg loom")
            .env("LOOM_MAX_PREEMPTIONS", preemptions.to_string())
            .args(["test", "-p", "beamr-sched", "--release", "--lib"])
            .arg("--target-dir")
            .arg(root.join("target/loom"))
            .arg("loom_models"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preemptions_default_and_refuse_what_is_not_a_number() {
        assert_eq!(parse(&[]).unwrap(), DEFAULT_PREEMPTIONS);
        let args = |a: &[&str]| a.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(parse(&args(&["--preemptions", "2"])).unwrap(), 2);
        assert!(parse(&args(&["--preemptions", "x"])).is_err());
        assert!(parse(&args(&["--other"])).is_err());
    }
}
