//! `cargo xtask fuzz [--time S] [TARGET...]`: runs the cargo-fuzz targets,
//! each for a time budget, from a committed seed corpus; fails on a crash,
//! naming the reproducer.
//!
//! The targets ([`TARGETS`]) live in four fuzz crates, `beamr-core/fuzz`
//! (the `.beam` parser, the external term decoder, `binary_to_term`'s
//! decoding), `beamr-ringbuf/fuzz` (the ring reader), `beamr-sched/fuzz`
//! (a module loaded and, if accepted, run under a budget; a distribution
//! frame from a connected node, decoded and handled) and
//! `beamr-ctl/fuzz` (the control protocol's request decoder). Each has its seeds
//! in `seeds/TARGET/` next to its sources: a few real inputs (fixture
//! modules, `term_to_binary` outputs, a small recorded ring). What the
//! fuzzer finds beyond them goes to `target/fuzz/corpus/TARGET/` (kept
//! between runs, never committed); a crash, a timeout or an out-of-memory
//! input to `target/fuzz/artifacts/TARGET/`.
//!
//! Fuzzing needs the nightly toolchain (installed with rustup when
//! missing) and cargo-fuzz (installed with `cargo install` when missing),
//! so the step works on a bare CI machine with network.

use crate::{nightly, process};
use crate::{Error, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// One fuzz target: its name and the crate whose `fuzz/` holds it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The cargo-fuzz target (a `[[bin]]` of the fuzz crate).
    pub name: &'static str,
    /// The crate directory, relative to the workspace root; its `fuzz/`
    /// is the fuzz crate.
    pub crate_dir: &'static str,
    /// libFuzzer's `-max_len`: the longest input it makes.
    pub max_len: usize,
}

/// Every target, in the order they run.
pub const TARGETS: [Target; 7] = [
    Target {
        name: "parse_beam",
        crate_dir: "beamr-core",
        max_len: 16 * 1024,
    },
    Target {
        name: "etf_decode",
        crate_dir: "beamr-core",
        max_len: 4096,
    },
    Target {
        name: "binary_to_term",
        crate_dir: "beamr-core",
        max_len: 4096,
    },
    // A trace file is at least 4,352 bytes (one ring of 512 words).
    Target {
        name: "ring_reader",
        crate_dir: "beamr-ringbuf",
        max_len: 16 * 1024,
    },
    Target {
        name: "load_and_run",
        crate_dir: "beamr-sched",
        max_len: 16 * 1024,
    },
    Target {
        name: "dist_frame",
        crate_dir: "beamr-sched",
        max_len: 4096,
    },
    Target {
        name: "request_decode",
        crate_dir: "beamr-ctl",
        max_len: 4096,
    },
];

/// The budget per target of `cargo xtask fuzz` without `--time`.
pub const DEFAULT_SECONDS: u64 = 60;

/// The budget per target in `cargo xtask test-all`.
pub const TEST_ALL_SECONDS: u64 = 12;

/// A parsed `cargo xtask fuzz` command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Seconds of fuzzing per target.
    pub seconds: u64,
    /// The targets to run (all when empty).
    pub only: Vec<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            seconds: DEFAULT_SECONDS,
            only: Vec::new(),
        }
    }
}

/// Parses the arguments after `fuzz`.
pub fn parse(args: &[OsString]) -> Result<Options> {
    let mut options = Options::default();
    let mut args = args.iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = args.next() {
        if arg == "--time" {
            let value = args
                .next()
                .ok_or_else(|| Error::new("--time needs a number of seconds"))?;
            options.seconds =
                value.parse().ok().filter(|&s| s > 0).ok_or_else(|| {
                    Error::new(format!("--time {value}: not a number of seconds"))
                })?;
        } else if arg.starts_with('-') {
            return Err(Error::new(format!("fuzz: unknown option `{arg}`")));
        } else if TARGETS.iter().any(|t| t.name == arg) {
            options.only.push(arg);
        } else {
            let names: Vec<&str> = TARGETS.iter().map(|t| t.name).collect();
            return Err(Error::new(format!(
                "fuzz: no target `{arg}` (the targets: {})",
                names.join(", ")
            )));
        }
    }
    Ok(options)
}

/// Installs what fuzzing needs, then runs every selected target for its
/// budget; fails if any found a crash, naming each reproducer.
pub fn run(root: &Path, options: &Options) -> Result<()> {
    ensure_nightly()?;
    ensure_cargo_fuzz()?;
    let mut failures = Vec::new();
    for target in TARGETS
        .iter()
        .filter(|t| options.only.is_empty() || options.only.iter().any(|n| n == t.name))
    {
        if let Err(e) = run_target(root, target, options.seconds) {
            eprintln!("xtask: fuzz: {e}");
            failures.push(e.to_string());
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Error::new(failures.join("; ")))
    }
}

/// The nightly toolchain, installed with rustup if missing.
fn ensure_nightly() -> Result<()> {
    let listed = process::output(Command::new("rustup").args(["toolchain", "list"]))
        .ok_or_else(|| Error::new("fuzzing needs rustup (to run the nightly toolchain)"))?;
    if listed.lines().any(|l| l.starts_with("nightly")) {
        return Ok(());
    }
    process::run(Command::new("rustup").args([
        "toolchain",
        "install",
        "nightly",
        "--profile",
        "minimal",
    ]))
}

/// cargo-fuzz, installed with `cargo install` if missing.
fn ensure_cargo_fuzz() -> Result<()> {
    if process::output(Command::new(cargo()).args(["fuzz", "--version"])).is_some() {
        return Ok(());
    }
    process::run(Command::new(cargo()).args(["install", "cargo-fuzz", "--locked"]))
}

/// The cargo that runs xtask (the toolchain's), or `cargo` on PATH.
fn cargo() -> OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"))
}

/// Where a target's files go under the workspace's `target/fuzz/`.
fn scratch(root: &Path, what: &str, target: &Target) -> PathBuf {
    root.join("target")
        .join("fuzz")
        .join(what)
        .join(target.name)
}

/// The committed seeds of `target`.
pub fn seeds(root: &Path, target: &Target) -> PathBuf {
    root.join(target.crate_dir)
        .join("fuzz")
        .join("seeds")
        .join(target.name)
}

/// Runs one target for `seconds`; an error names the reproducers of what
/// it found.
fn run_target(root: &Path, target: &Target, seconds: u64) -> Result<()> {
    let corpus = scratch(root, "corpus", target);
    let artifacts = scratch(root, "artifacts", target);
    let seeds = seeds(root, target);
    for dir in [&corpus, &artifacts] {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::new(format!("creating {}: {e}", dir.display())))?;
    }
    if !seeds.is_dir() {
        return Err(Error::new(format!(
            "{}: no seed corpus at {}",
            target.name,
            seeds.display()
        )));
    }
    let before = artifacts_in(&artifacts);
    let mut cmd = nightly::cargo();
    cmd.current_dir(root.join(target.crate_dir))
        .args(["fuzz", "run", target.name])
        .arg("--target-dir")
        .arg(root.join("target").join("fuzz").join("build"))
        .arg(&corpus)
        .arg(&seeds)
        .arg("--")
        .arg(format!("-max_total_time={seconds}"))
        .arg(format!("-max_len={}", target.max_len))
        .arg(format!("-artifact_prefix={}/", artifacts.display()))
        .arg("-timeout=10")
        .arg("-rss_limit_mb=2048")
        .arg("-print_final_stats=1");
    println!("\n==> fuzz {} for {seconds}s", target.name);
    let started = Instant::now();
    let result = process::run(&mut cmd);
    let found: Vec<PathBuf> = artifacts_in(&artifacts)
        .into_iter()
        .filter(|p| !before.contains(p))
        .collect();
    println!(
        "fuzz {}: {} in {:.1}s",
        target.name,
        if result.is_ok() && found.is_empty() {
            "no crash"
        } else {
            "FAILED"
        },
        started.elapsed().as_secs_f64()
    );
    if found.is_empty() {
        return result.map_err(|e| Error::new(format!("{}: {e}", target.name)));
    }
    let shown: Vec<String> = found.iter().map(|p| p.display().to_string()).collect();
    Err(Error::new(format!(
        "{} found a crash; reproducer{}: {} (rerun one with `cargo +nightly fuzz run {} PATH` in {})",
        target.name,
        if found.len() == 1 { "" } else { "s" },
        shown.join(", "),
        target.name,
        target.crate_dir
    )))
}

/// The files in `dir` (sorted).
fn artifacts_in(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_time_and_targets() {
        assert_eq!(parse(&args(&[])).unwrap(), Options::default());
        let o = parse(&args(&["--time", "5", "ring_reader", "etf_decode"])).unwrap();
        assert_eq!(o.seconds, 5);
        assert_eq!(o.only, ["ring_reader", "etf_decode"]);
        assert!(parse(&args(&["--time"])).is_err());
        assert!(parse(&args(&["--time", "0"])).is_err());
        let err = parse(&args(&["nope"])).unwrap_err().to_string();
        assert!(err.contains("parse_beam, etf_decode"), "{err}");
        assert!(parse(&args(&["--fast"])).is_err());
    }

    #[test]
    fn every_target_has_its_sources_and_seeds() {
        let root = crate::project_root();
        for t in &TARGETS {
            let fuzz = root.join(t.crate_dir).join("fuzz");
            let source = fuzz.join("fuzz_targets").join(format!("{}.rs", t.name));
            assert!(source.is_file(), "{}", source.display());
            let manifest = std::fs::read_to_string(fuzz.join("Cargo.toml")).unwrap();
            assert!(
                manifest.contains(&format!("name = \"{}\"", t.name)),
                "{}",
                t.name
            );
            let seeds = std::fs::read_dir(seeds(&root, t)).unwrap().count();
            assert!((1..=16).contains(&seeds), "{}: {seeds} seeds", t.name);
        }
    }

    #[test]
    fn the_test_all_budget_stays_short() {
        assert!(TEST_ALL_SECONDS * TARGETS.len() as u64 <= 90);
    }
}
