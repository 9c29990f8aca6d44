//! `cargo xtask tsan`: the concurrent parts of beamr under ThreadSanitizer,
//! which reports every pair of accesses from two threads, one a write, that
//! no lock, atomic or thread start orders (a data race), and lock-order
//! inversions.
//!
//! What runs, each built with `-Zsanitizer=thread` and the standard library
//! rebuilt the same way (`-Zbuild-std`; an uninstrumented one hides the
//! ordering its locks and channels give), in `target/tsan/`:
//!
//! - beamr-sched's scheduler stress tests (`sched_stress`: 50 senders, 50
//!   receivers, 4 schedulers; `sched_procs`: links, monitors and exits
//!   across schedulers);
//! - the flight recorder's concurrent writers and reader (`ringbuf_stress`);
//! - the differential programs that run many processes on four schedulers
//!   against `erl` (`proc_*`, `ets_*`, `timer_*`, `tcp_*`, `code_*`): the
//!   `beamr` they run is the instrumented one, and each must still print
//!   what erl prints.
//!
//! Reports go to `target/tsan/reports/` (`log_path`), not to the programs'
//! standard error, where they would only show as a differential mismatch;
//! the command fails when any report was written, printing them, or when a
//! test fails. `xtask/tsan.supp` names the one known false positive
//! (crossbeam-deque's speculative slot read) and why.

use crate::{fixtures, nightly, process, Error, Result};
use std::fs;
use std::path::Path;
use std::process::Command;

/// Each run: the package, its test target, and the name filter (one: the
/// differential harness takes one at a time).
const RUNS: &[(&str, &str, Option<&str>)] = &[
    ("beamr-sched", "sched_stress", None),
    ("beamr-sched", "sched_procs", None),
    ("beamr-ringbuf", "ringbuf_stress", None),
    ("beamr-cli", "diff", Some("proc_")),
    ("beamr-cli", "diff", Some("ets_")),
    ("beamr-cli", "diff", Some("timer_")),
    ("beamr-cli", "diff", Some("tcp_")),
    ("beamr-cli", "diff", Some("code_")),
];

/// Runs everything above; fails when a test fails or TSan reports a race.
pub fn run(root: &Path) -> Result<()> {
    let host = nightly::host_triple()?;
    nightly::require(&["rust-src"], &host)?;
    let built = fixtures::build(root)?;
    let reports = root.join("target/tsan/reports");
    if reports.exists() {
        fs::remove_dir_all(&reports)
            .map_err(|e| Error::new(format!("clearing {}: {e}", reports.display())))?;
    }
    fs::create_dir_all(&reports)
        .map_err(|e| Error::new(format!("creating {}: {e}", reports.display())))?;
    let options = format!(
        "halt_on_error=0 suppressions={} log_path={}",
        root.join("xtask/tsan.supp").display(),
        reports.join("race").display()
    );
    let mut failed = Vec::new();
    for (package, test, filter) in RUNS {
        let mut cmd = tsan_test(root, &host, package, test);
        cmd.env(fixtures::ENV_VAR, &built.dir)
            .env("TSAN_OPTIONS", &options);
        if let Some(filter) = filter {
            cmd.arg("--").arg(filter);
        }
        if let Err(e) = process::run(&mut cmd) {
            failed.push(e.to_string());
        }
    }
    let written = report_files(&reports)?;
    for file in &written {
        let text = fs::read_to_string(file).unwrap_or_default();
        eprintln!("{}:\n{text}", file.display());
    }
    if written.is_empty() && failed.is_empty() {
        println!("tsan: no data race reported");
        return Ok(());
    }
    Err(Error::new(format!(
        "{} ThreadSanitizer report(s) in {} (printed above); {} failed run(s){}",
        written.len(),
        reports.display(),
        failed.len(),
        failed
            .iter()
            .map(|f| format!("\n  {f}"))
            .collect::<String>()
    )))
}

/// `cargo +nightly test` of one test target, instrumented.
fn tsan_test(root: &Path, host: &str, package: &str, test: &str) -> Command {
    let mut cmd = nightly::cargo();
    cmd.current_dir(root)
        .env("RUSTFLAGS", "-Zsanitizer=thread")
        .env("RUSTDOCFLAGS", "-Zsanitizer=thread")
        .args([
            "test",
            "-Zbuild-std",
            "--target",
            host,
            "-p",
            package,
            "--test",
            test,
        ])
        .arg("--target-dir")
        .arg(root.join("target/tsan"));
    cmd
}

/// The report files TSan wrote into `dir` (`race.PID`), sorted.
fn report_files(dir: &Path) -> Result<Vec<std::path::PathBuf>> {
    let mut files: Vec<_> = fs::read_dir(dir)
        .map_err(|e| Error::new(format!("reading {}: {e}", dir.display())))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    Ok(files)
}
