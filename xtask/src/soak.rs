//! `cargo xtask soak [NAME...]`: the programs in `tests/soak/` (each a
//! module `NAME` exporting `main/0`) that push one limit far past what a
//! test may: ten million messages in one mailbox, a binary past 4 GiB, a
//! recursion 100 million calls deep. Each runs on `erl` and on beamr (a
//! release build), and both must print the same bytes and exit with the
//! same status, within [`TIME_LIMIT`] each; an abort of the runtime, a
//! signal or a timeout fails. Times are printed, not judged.
//!
//! They need several gigabytes of memory each (erl 25 peaks at 1.5, 4.2
//! and 3.6 GB for the three) and minutes, so they are not part of
//! `test-all`. With names, only those programs run.

use crate::bench::build;
use crate::bench::runner::{run_captured, RunOutput};
use crate::{gleam_mist, process, Error, Result};
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// How long one run of one program may take on either runtime.
pub const TIME_LIMIT: Duration = Duration::from_secs(900);

/// What `cargo xtask soak` runs.
#[derive(Debug, PartialEq, Eq)]
pub enum Soak {
    /// The programs of `tests/soak` named (all, when none are).
    Programs(Vec<String>),
    /// The mist app on beamr under a fixed rate ([`gleam_mist::soak`]).
    Mist(gleam_mist::soak::Plan),
}

/// Parses `[NAME...]` (the programs to run; none: all of them) or
/// `--mist [...]`.
pub fn parse(args: &[OsString]) -> Result<Soak> {
    if args.first().is_some_and(|a| a == "--mist") {
        let args: Vec<String> = args
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        return gleam_mist::soak::parse(&args).map(Soak::Mist);
    }
    programs_named(args).map(Soak::Programs)
}

/// Runs the mist app's soak on a release build of beamr.
pub fn mist(root: &Path, plan: gleam_mist::soak::Plan) -> Result<()> {
    let app = match crate::gleam_suites::mist_app(root) {
        Ok(app) => app?,
        Err(skip) => return Err(Error::new(format!("soak --mist: {}", skip.0))),
    };
    let beamr = build::beamr(root, &[])?;
    gleam_mist::soak::run(&app, &beamr, plan)
}

fn programs_named(args: &[OsString]) -> Result<Vec<String>> {
    args.iter()
        .map(|arg| match arg.to_str() {
            Some(name) if !name.starts_with('-') => Ok(name.to_owned()),
            _ => Err(Error::new(format!(
                "usage: cargo xtask soak [NAME...] (not {arg:?})"
            ))),
        })
        .collect()
}

/// Runs the programs named (all when none are); fails on any mismatch.
pub fn run(root: &Path, only: &[String]) -> Result<()> {
    let sources = programs(&root.join("tests/soak"), only)?;
    let beams = root.join("target/soak");
    build::compile(&sources, &beams)?;
    let beamr = build::beamr(root, &[])?;
    let mut failed = Vec::new();
    for source in &sources {
        let name = source
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut erl = Command::new("erl");
        erl.arg("-noshell")
            .arg("-pa")
            .arg(&beams)
            .args(["-s", &name, "main", "-s", "init", "stop"]);
        let mut ours = Command::new(&beamr);
        ours.args(["run", "-e", &name]).arg(&beams);
        let expected = timed(&name, "erl", erl)?;
        let actual = timed(&name, "beamr", ours)?;
        match compare(&expected, &actual) {
            None => println!("soak {name}: same output and exit status"),
            Some(why) => {
                println!("soak {name}: DIFFERS: {why}");
                failed.push(name);
            }
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::new(format!(
            "soak programs differ: {}",
            failed.join(", ")
        )))
    }
}

/// The `.erl` files of `dir`, sorted, or those named in `only`.
fn programs(dir: &Path, only: &[String]) -> Result<Vec<PathBuf>> {
    let mut all: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| Error::new(format!("reading {}: {e}", dir.display())))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "erl"))
        .collect();
    all.sort();
    if all.is_empty() {
        return Err(Error::new(format!("no soak program in {}", dir.display())));
    }
    for name in only {
        if !all
            .iter()
            .any(|p| p.file_stem().is_some_and(|s| s == name.as_str()))
        {
            return Err(Error::new(format!(
                "no soak program {name} in {}",
                dir.display()
            )));
        }
    }
    if !only.is_empty() {
        all.retain(|p| {
            only.iter()
                .any(|name| p.file_stem().is_some_and(|s| s == name.as_str()))
        });
    }
    Ok(all)
}

/// Runs `cmd` with empty standard input, killing it after [`TIME_LIMIT`]
/// (an error then); prints how long it took.
fn timed(name: &str, runtime: &str, mut cmd: Command) -> Result<RunOutput> {
    println!("$ {}", process::display(&cmd));
    let started = Instant::now();
    let run = run_captured(&mut cmd, TIME_LIMIT)?;
    if run.timed_out {
        return Err(Error::new(format!(
            "{name}: {runtime} did not finish within {TIME_LIMIT:?}"
        )));
    }
    let status = run
        .status
        .map_or_else(|| "no exit status".to_owned(), |s| s.to_string());
    println!(
        "  {runtime}: {:.1} s, {status}",
        started.elapsed().as_secs_f64()
    );
    Ok(run)
}

/// Why two runs differ (`None` when they do not): the exit status (a
/// signal on either side always differs) or standard output, whose first
/// differing line is shown.
fn compare(expected: &RunOutput, actual: &RunOutput) -> Option<String> {
    let code = |run: &RunOutput| run.status.and_then(|s| s.code());
    let shown = |run: &RunOutput| {
        run.status
            .map_or_else(|| "no exit status".to_owned(), |s| s.to_string())
    };
    let (Some(want), Some(got)) = (code(expected), code(actual)) else {
        return Some(format!(
            "ended by a signal (erl: {}, beamr: {}); beamr's standard error:\n{}",
            shown(expected),
            shown(actual),
            actual.stderr
        ));
    };
    if want != got {
        return Some(format!(
            "exit status erl {want}, beamr {got}; beamr's standard error:\n{}",
            actual.stderr
        ));
    }
    if expected.stdout == actual.stdout {
        return None;
    }
    let (want, got) = (&expected.stdout, &actual.stdout);
    let mut lines = want.lines().zip(got.lines()).enumerate();
    Some(match lines.find(|(_, (w, g))| w != g) {
        Some((i, (w, g))) => format!("line {}: erl {w:?}, beamr {g:?}", i + 1),
        None => format!(
            "erl printed {} lines, beamr {}",
            want.lines().count(),
            got.lines().count()
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use std::process::ExitStatus;

    fn output(code: i32, stdout: &str) -> RunOutput {
        RunOutput {
            stdout: stdout.to_owned(),
            stderr: String::new(),
            success: code == 0,
            timed_out: false,
            status: Some(ExitStatus::from_raw(code << 8)),
        }
    }

    #[test]
    fn runs_compare_by_status_then_by_line() {
        assert_eq!(compare(&output(0, "a\nb\n"), &output(0, "a\nb\n")), None);
        let why = compare(&output(0, "a\nb\n"), &output(0, "a\nc\n")).unwrap();
        assert!(why.starts_with("line 2:"), "{why}");
        let why = compare(&output(0, "a\n"), &output(1, "a\n")).unwrap();
        assert!(why.starts_with("exit status erl 0, beamr 1"), "{why}");
        let why = compare(&output(0, "a\n"), &output(0, "a\nb\n")).unwrap();
        assert!(why.contains("erl printed 1 lines, beamr 2"), "{why}");
        let killed = RunOutput {
            status: Some(ExitStatus::from_raw(9)),
            ..output(0, "")
        };
        assert!(compare(&output(0, ""), &killed).unwrap().contains("signal"));
    }

    #[test]
    fn names_must_be_programs() {
        let args = |a: &[&str]| a.iter().map(OsString::from).collect::<Vec<_>>();
        assert_eq!(
            parse(&args(&["soak_binary"])).unwrap(),
            Soak::Programs(vec!["soak_binary".into()])
        );
        assert!(parse(&args(&["--time"])).is_err());
        assert!(matches!(
            parse(&args(&["--mist", "--seconds", "5"])).unwrap(),
            Soak::Mist(_)
        ));
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/soak");
        assert!(programs(&dir, &["nope".into()]).is_err());
        let all = programs(&dir, &[]).unwrap();
        assert!(all.len() >= 3, "{all:?}");
        assert_eq!(programs(&dir, &["soak_binary".into()]).unwrap().len(), 1);
    }
}
