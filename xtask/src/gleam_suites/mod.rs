//! The `gleam` step of test-all: the Gleam libraries' own test suites and
//! a Gleam project, compiled by Gleam and OTP 27's erlc, run on `erl` 27
//! and on beamr (with OTP 27's library), their output compared.
//!
//! - The compiler and the packages come from `../shared/gleam/` beside the
//!   workspace (`BEAMR_GLEAM_DIR` names another such directory): `bin/gleam`
//!   and `packages/` (gleam_stdlib, gleeunit, gleam_erlang, logging,
//!   gleam_otp, with their tests). Each package is compiled with `gleam
//!   compile-package` (no hex access is needed), its `src` and its `test`
//!   into separate `ebin` directories, by erlc in the OTP 27 root.
//! - Each suite runs in a directory holding the package's `test/`, on both
//!   runtimes with the same code path (the suite's tests, the runner, then
//!   every package's `src`), through `tests/gleam/beamr_gleam_suite.erl`:
//!   EUnit runs the tests gleeunit's `main/0` would, each under a limit of
//!   120 s instead of 5 s (so that a large test on a loaded machine is
//!   checked for what it computes, not for its speed), and the runner
//!   prints one line per test with its outcome and captured output. The
//!   two accounts are compared test by test (see [`outcomes`]): a test
//!   that timed out on erl is reported as erl's, anything else that
//!   differs is named by its test. Logger reports (the supervisor reports
//!   gleam_otp's tests cause) are cut out of both outputs first: when they
//!   print depends on timing on erl itself.
//! - `examples/process_ring` is built with `gleam build` and run with `gleam
//!   run` and with `beamr run build/dev/erlang`; then exported with `gleam
//!   export erlang-shipment` (offline: the project has no dependencies) and
//!   run with the shipment's `entrypoint.sh run` and with `beamr run
//!   build/erlang-shipment`.
//! - Then Gleam's own commands through `beamr shim`: `gleam run` and
//!   `gleam test` on a small project, with erl 27 and with the shim's
//!   launchers first on the PATH (see [`crate::gleam_shim`]).
//! - Last, `tests/gleam/mist_app`, a web app on mist, served on erl 27 and
//!   on beamr and sent the same requests (see [`crate::gleam_mist`]);
//!   `cargo xtask mist` runs it alone. The OTP 27 root gets `erlang-ssl`
//!   and what it needs first ([`otp_roots::MIST_PACKAGES`]).
//!
//! `tests/gleam/KNOWN_FAILURES` lists suites that still differ, with the
//! reason: they are run and reported, without failing the step. The tests
//! that differ are run once more, alone, on both runtimes, and count only
//! if they differ again: the suites are upstream's, and some of their
//! tests sleep 10 ms and then assert that another process has finished
//! (gleam_otp's `factory_supervisor_test`), which a loaded machine can
//! make false on erl as on beamr.

mod outcomes;

use crate::otp_roots::{self, Skip};
use crate::{process, Error, Result};
use outcomes::{Difference, Report};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The packages, in dependency order.
const PACKAGES: [&str; 5] = [
    "gleam_stdlib",
    "gleeunit",
    "gleam_erlang",
    "logging",
    "gleam_otp",
];

/// The suites compared, each with the packages whose `src` it needs.
const SUITES: [(&str, &[&str]); 3] = [
    ("gleam_stdlib", &["gleam_stdlib"]),
    (
        "gleam_erlang",
        &["gleeunit", "gleam_stdlib", "gleam_erlang"],
    ),
    (
        "gleam_otp",
        &[
            "gleeunit",
            "gleam_stdlib",
            "gleam_erlang",
            "logging",
            "gleam_otp",
        ],
    ),
];

/// The variable naming the Gleam directory (compiler and packages).
const GLEAM_DIR_VAR: &str = "BEAMR_GLEAM_DIR";

/// The OTP release Gleam 1.18's output needs (it writes OTP 27 syntax).
const RELEASE: &str = "27";

/// Runs the step: `Err(Skip)` when the compiler, the packages or the OTP
/// 27 root cannot be had. beamr is built optimised first (eunit's 5 s
/// timeout per test is out of reach of the unoptimised interpreter).
pub fn run(workspace: &Path) -> std::result::Result<Result<()>, Skip> {
    let (compiler, packages, otp_root) = locate(workspace)?;
    if let Err(e) = build_release(workspace) {
        return Ok(Err(e));
    }
    let gleam = Gleam {
        compiler,
        otp_root: otp_root.clone(),
        // Inside the root, so that erlc and erl there see the files.
        work: otp_root.join("tmp/beamr-gleam"),
        beamr: workspace.join("target/release/beamr"),
    };
    Ok(gleam.run_all(workspace, &packages))
}

/// Only the mist app's comparison ([`crate::gleam_mist`]), with `beamr`
/// (or beamr built optimised when `None`).
pub fn mist(workspace: &Path, beamr: Option<&Path>) -> std::result::Result<Result<()>, Skip> {
    let (compiler, packages, otp_root) = locate(workspace)?;
    otp_roots::ensure_packages(&otp_root, &otp_roots::MIST_PACKAGES)?;
    let release = workspace.join("target/release/beamr");
    let beamr = match beamr {
        Some(beamr) => beamr,
        None => {
            if let Err(e) = build_release(workspace) {
                return Ok(Err(e));
            }
            &release
        }
    };
    Ok(crate::gleam_mist::run(
        workspace, &otp_root, &compiler, &packages, beamr,
    ))
}

/// The mist app built in the OTP 27 root (for the server benchmark), with
/// the packages its OTP applications need installed there.
pub fn mist_app(workspace: &Path) -> std::result::Result<Result<crate::gleam_mist::App>, Skip> {
    let (compiler, packages, otp_root) = locate(workspace)?;
    otp_roots::ensure_packages(&otp_root, &otp_roots::MIST_PACKAGES)?;
    Ok(crate::gleam_mist::App::build(
        workspace, &otp_root, &compiler, &packages,
    ))
}

/// The Gleam compiler, the packages directory and the OTP 27 root.
fn locate(workspace: &Path) -> std::result::Result<(PathBuf, PathBuf, PathBuf), Skip> {
    let gleam_dir = std::env::var_os(GLEAM_DIR_VAR)
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("../shared/gleam"));
    let compiler = gleam_dir.join("bin/gleam");
    let packages = gleam_dir.join("packages");
    if !compiler.is_file() || !packages.is_dir() {
        return Err(Skip(format!(
            "no Gleam compiler and packages in {} (set {GLEAM_DIR_VAR})",
            gleam_dir.display()
        )));
    }
    let (_, suite) = otp_roots::RELEASES
        .iter()
        .find(|(r, _)| *r == RELEASE)
        .expect("OTP 27 is one of otp_roots::RELEASES");
    let otp_root = otp_roots::ensure(workspace, RELEASE, suite)?;
    Ok((compiler, packages, otp_root))
}

/// `cargo build --release -p beamr-cli`.
fn build_release(workspace: &Path) -> Result<()> {
    // `cargo xtask` runs under cargo, which says which cargo it is.
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    process::run(Command::new(cargo).current_dir(workspace).args([
        "build",
        "--release",
        "-p",
        "beamr-cli",
    ]))
}

/// One program run on both runtimes, in `dir`: on erl, `erl_eval` with
/// `erl_path` in front of the code path; on beamr, `beamr run beamr_args`.
struct Run<'a> {
    name: &'a str,
    dir: &'a Path,
    erl_path: &'a [PathBuf],
    erl_eval: &'a str,
    /// A shell command run (in `dir`, inside the root) instead of `erl
    /// -eval erl_eval` with `erl_path`.
    erl_script: Option<String>,
    beamr_args: Vec<std::ffi::OsString>,
    /// Plain arguments (`-extra ...` on erl, `-- ...` on beamr).
    plain_args: Vec<String>,
}

struct Gleam {
    compiler: PathBuf,
    otp_root: PathBuf,
    work: PathBuf,
    beamr: PathBuf,
}

impl Gleam {
    fn run_all(&self, workspace: &Path, packages: &Path) -> Result<()> {
        let known = known_failures(&workspace.join("tests/gleam/KNOWN_FAILURES"))?;
        let _ = fs::remove_dir_all(&self.work);
        self.compile_packages(packages)?;
        let runner = self.compile_runner(workspace)?;
        let mut differing = Vec::new();
        for (suite, deps) in SUITES {
            let mut path = vec![
                self.work.join("ebin").join(format!("{suite}-test")),
                runner.clone(),
            ];
            path.extend(deps.iter().map(|d| self.work.join("ebin").join(d)));
            let dir = self.work.join("run").join(suite);
            copy_dir(&packages.join(suite).join("test"), &dir.join("test"))?;
            if !self.compare_suite(suite, &dir, &path)? {
                differing.push(suite.to_string());
            }
        }
        if !self.compare_example(workspace)? {
            differing.push("examples/process_ring".into());
        }
        if !self.compare_shipment()? {
            differing.push("examples/process_ring erlang-shipment".into());
        }
        if let Err(e) =
            crate::gleam_shim::run(&self.otp_root, &self.compiler, packages, &self.beamr)
        {
            println!(
                "gleam: gleam run, gleam test, gleam shell, entrypoint.sh run and gleam_stdlib's gleam test through beamr shim: DIFFERENT:\n{e}"
            );
            differing.push("gleam run/test through beamr shim".into());
        } else {
            println!(
                "gleam: gleam run, gleam test, gleam shell, entrypoint.sh run and gleam_stdlib's gleam test through beamr shim: same"
            );
        }
        if let Err(otp_roots::Skip(why)) =
            otp_roots::ensure_packages(&self.otp_root, &otp_roots::MIST_PACKAGES)
        {
            println!("gleam: mist_app: skipped: {why}");
        } else if let Err(e) = crate::gleam_mist::run(
            workspace,
            &self.otp_root,
            &self.compiler,
            packages,
            &self.beamr,
        ) {
            println!("gleam: mist_app: DIFFERENT:\n{e}");
            differing.push("mist_app".into());
        } else {
            println!("gleam: mist_app: same on erl 27 and beamr");
        }
        let mut failed = Vec::new();
        for name in &differing {
            match known.iter().find(|(n, _)| n == name) {
                Some((_, why)) => println!("gleam: {name}: known failure: {why}"),
                None => failed.push(name.clone()),
            }
        }
        for (name, _) in &known {
            if !differing.contains(name) {
                println!("gleam: {name} now matches erl: take it off tests/gleam/KNOWN_FAILURES");
            }
        }
        if failed.is_empty() {
            Ok(())
        } else {
            Err(Error::new(format!(
                "Gleam output differs from erl 27: {}",
                failed.join(", ")
            )))
        }
    }

    /// Compiles every package to Erlang with Gleam, then with erlc 27:
    /// `ebin/PKG` from its `src`, `ebin/PKG-test` from its `test`.
    fn compile_packages(&self, packages: &Path) -> Result<()> {
        let sources = self.work.join("packages");
        let out = self.work.join("out");
        fs::create_dir_all(&out).map_err(|e| Error::new(format!("{}: {e}", out.display())))?;
        for pkg in PACKAGES {
            copy_dir(&packages.join(pkg), &sources.join(pkg))?;
        }
        // gleeunit's own tests need a package that is not there.
        let _ = fs::remove_dir_all(sources.join("gleeunit/test"));
        for pkg in PACKAGES {
            process::run(
                Command::new(&self.compiler)
                    .args(["compile-package", "--target", "erlang", "--no-beam"])
                    .arg("--package")
                    .arg(sources.join(pkg))
                    .arg("--out")
                    .arg(out.join(pkg))
                    .arg("--lib")
                    .arg(&out),
            )?;
            let artefacts = out.join(pkg).join("_gleam_artefacts");
            let tests = test_modules(&sources.join(pkg).join("test"));
            let (src_dir, test_dir) = (
                self.work.join("erl").join(pkg),
                self.work.join("erl").join(format!("{pkg}-test")),
            );
            for dir in [&src_dir, &test_dir] {
                fs::create_dir_all(dir)
                    .map_err(|e| Error::new(format!("{}: {e}", dir.display())))?;
            }
            // Gleam's output, and the packages' own .erl files (those in
            // subdirectories are not copied into the artefacts).
            let mut erl_files = files_with_extension(&artefacts, "erl", false);
            erl_files.extend(files_with_extension(
                &sources.join(pkg).join("src"),
                "erl",
                true,
            ));
            erl_files.extend(files_with_extension(
                &sources.join(pkg).join("test"),
                "erl",
                true,
            ));
            for file in erl_files {
                let module = file
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default();
                let to = if tests.iter().any(|t| t == module) {
                    &test_dir
                } else {
                    &src_dir
                };
                fs::copy(&file, to.join(file.file_name().expect("a file name")))
                    .map_err(|e| Error::new(format!("copying {}: {e}", file.display())))?;
            }
            for (dir, name) in [
                (&src_dir, pkg.to_string()),
                (&test_dir, format!("{pkg}-test")),
            ] {
                let ebin = self.work.join("ebin").join(&name);
                fs::create_dir_all(&ebin)
                    .map_err(|e| Error::new(format!("{}: {e}", ebin.display())))?;
                if files_with_extension(dir, "erl", false).is_empty() {
                    continue;
                }
                let script = format!(
                    "cd {} && erlc -o {} *.erl",
                    self.inside(dir).display(),
                    self.inside(&ebin).display()
                );
                process::run(self.chroot("sh").args(["-c", &script]))?;
            }
        }
        Ok(())
    }

    /// Compiles `tests/gleam/beamr_gleam_suite.erl` with erlc 27 into
    /// its own ebin directory, which it returns.
    fn compile_runner(&self, workspace: &Path) -> Result<PathBuf> {
        let (src, ebin) = (
            self.work.join("erl/beamr_gleam_suite"),
            self.work.join("ebin/beamr_gleam_suite"),
        );
        for dir in [&src, &ebin] {
            fs::create_dir_all(dir).map_err(|e| Error::new(format!("{}: {e}", dir.display())))?;
        }
        let file = workspace.join("tests/gleam/beamr_gleam_suite.erl");
        fs::copy(&file, src.join("beamr_gleam_suite.erl"))
            .map_err(|e| Error::new(format!("copying {}: {e}", file.display())))?;
        let script = format!(
            "erlc -o {} {}/beamr_gleam_suite.erl",
            self.inside(&ebin).display(),
            self.inside(&src).display()
        );
        process::run(self.chroot("sh").args(["-c", &script]))?;
        Ok(ebin)
    }

    /// Runs the suite `name` (its tests in `dir/test`, its code on `path`)
    /// on erl and on beamr through the runner and compares them test by
    /// test; the tests that differ are run once more, alone. True when no
    /// difference is left.
    fn compare_suite(&self, name: &str, dir: &Path, path: &[PathBuf]) -> Result<bool> {
        let run = |only: Vec<String>| Run {
            name,
            dir,
            erl_path: path,
            erl_eval: "beamr_gleam_suite:main()",
            erl_script: None,
            beamr_args: path
                .iter()
                .map(|p| p.clone().into_os_string())
                .chain(["-e".into(), "beamr_gleam_suite".into()])
                .collect(),
            plain_args: only,
        };
        let (erl, beamr) = self.run_both(&run(Vec::new()))?;
        let (erl_report, beamr_report) = (Report::parse(&erl.text), Report::parse(&beamr.text));
        let mut found = outcomes::compare(&erl_report, &beamr_report);
        println!(
            "gleam: {name}: erl {} ({}), beamr {} ({})",
            erl_report.tally(),
            erl.status,
            beamr_report.tally(),
            beamr.status
        );
        if erl_report.tests.is_empty() {
            println!("gleam: {name}: erl ran no test");
            return Ok(false);
        }
        if erl.status.code() != beamr.status.code() {
            println!("gleam: {name}: the runner's exit statuses differ");
            beamr.print_stderr_tail();
            return Ok(false);
        }
        let again: Vec<String> = found
            .differences
            .iter()
            .filter_map(|d| d.key().and_then(outcomes::rerun_name))
            .collect();
        if !again.is_empty() {
            println!(
                "gleam: {name}: {} tests differ; running them once more, alone",
                again.len()
            );
            let (erl, beamr) = self.run_both(&run(again))?;
            let retried = outcomes::compare(&Report::parse(&erl.text), &Report::parse(&beamr.text));
            let still: Vec<&str> = retried
                .differences
                .iter()
                .filter_map(Difference::key)
                .collect();
            found.differences.retain(|d| match d.key() {
                Some(key) => outcomes::rerun_name(key).is_none() || still.contains(&key),
                None => true,
            });
            found.notes.extend(retried.notes);
        }
        for note in &found.notes {
            println!("gleam: {name}: note: {note}");
        }
        for difference in &found.differences {
            println!("gleam: {name}: DIFFERENT: {difference}");
        }
        if !found.differences.is_empty() {
            beamr.print_stderr_tail();
        }
        Ok(found.differences.is_empty())
    }

    /// Runs `run` on erl and on beamr; true when their outputs (logger
    /// reports cut) and exit statuses agree.
    fn compare(&self, run: &Run<'_>) -> Result<bool> {
        let (erl, beamr) = self.run_both(run)?;
        let same = erl.text == beamr.text && erl.status.code() == beamr.status.code();
        println!(
            "gleam: {}: erl {} ({}), beamr {} ({}): {}",
            run.name,
            summary_line(&erl.text),
            erl.status,
            summary_line(&beamr.text),
            beamr.status,
            if same { "same" } else { "DIFFERENT" }
        );
        if !same {
            report_difference(&erl.text, &beamr.text);
            beamr.print_stderr_tail();
        }
        Ok(same)
    }

    /// Runs `run` on erl (inside the root) and on beamr.
    fn run_both(&self, run: &Run<'_>) -> Result<(Ran, Ran)> {
        // erl puts the directories of -pa in front of its path in reverse.
        let mut pa = String::new();
        for d in run.erl_path.iter().rev() {
            pa.push_str(&format!(" -pa {}", self.inside(d).display()));
        }
        let script = match &run.erl_script {
            Some(command) => format!("cd {} && {command}", self.inside(run.dir).display()),
            None => format!(
                "cd {} && erl -noshell{pa} -eval \"{}\"{}",
                self.inside(run.dir).display(),
                run.erl_eval,
                if run.plain_args.is_empty() {
                    String::new()
                } else {
                    format!(" -extra {}", shell_words(&run.plain_args))
                }
            ),
        };
        let erl = self.chroot("sh").args(["-c", &script]).output();
        let beamr = Command::new(&self.beamr)
            .current_dir(run.dir)
            .env("BEAMR_OTP_ROOT", self.otp_root.join("usr/lib/erlang"))
            .arg("run")
            .args(&run.beamr_args)
            .args(if run.plain_args.is_empty() {
                None
            } else {
                Some("--")
            })
            .args(&run.plain_args)
            .output();
        match (erl, beamr) {
            (Ok(e), Ok(b)) => Ok((Ran::from(e), Ran::from(b))),
            (Err(e), _) | (_, Err(e)) => {
                Err(Error::new(format!("gleam: cannot run {}: {e}", run.name)))
            }
        }
    }

    /// Builds `examples/process_ring` with `gleam build` and compares
    /// `gleam run`'s way of running it on erl with `beamr run` of the build.
    fn compare_example(&self, workspace: &Path) -> Result<bool> {
        let project = self.work.join("projects/process_ring");
        copy_dir(
            &workspace.join("examples/process_ring/src"),
            &project.join("src"),
        )?;
        fs::copy(
            workspace.join("examples/process_ring/gleam.toml"),
            project.join("gleam.toml"),
        )
        .map_err(|e| Error::new(format!("copying gleam.toml: {e}")))?;
        let compiler = self.work.join("gleam");
        fs::copy(&self.compiler, &compiler)
            .map_err(|e| Error::new(format!("copying the Gleam compiler: {e}")))?;
        self.gleam_in_root(&project, "build")?;
        let build = project.join("build/dev/erlang");
        self.compare(&Run {
            name: "examples/process_ring",
            dir: &project,
            // As `gleam run`: the root package's PKG@@main:run(PKG).
            erl_path: &[build.join("process_ring/ebin")],
            erl_eval: "'process_ring@@main':run(process_ring)",
            erl_script: None,
            beamr_args: vec![build.into_os_string()],
            plain_args: Vec::new(),
        })
    }

    /// Exports the example built by [`Gleam::compare_example`] with `gleam
    /// export erlang-shipment` and compares the shipment's own
    /// `entrypoint.sh run` on erl with `beamr run build/erlang-shipment`.
    fn compare_shipment(&self) -> Result<bool> {
        let project = self.work.join("projects/process_ring");
        self.gleam_in_root(&project, "export erlang-shipment")?;
        let shipment = project.join("build/erlang-shipment");
        for needed in ["entrypoint.sh", "process_ring/ebin"] {
            if !shipment.join(needed).exists() {
                return Err(Error::new(format!(
                    "gleam export erlang-shipment wrote no {}",
                    shipment.join(needed).display()
                )));
            }
        }
        self.compare(&Run {
            name: "examples/process_ring erlang-shipment",
            dir: &project,
            erl_path: &[],
            erl_eval: "",
            erl_script: Some("build/erlang-shipment/entrypoint.sh run".into()),
            beamr_args: vec![shipment.into_os_string()],
            plain_args: Vec::new(),
        })
    }

    /// Runs `gleam COMMAND` in `project` inside the root (Gleam runs erlc
    /// and escript), with the copy of the compiler that
    /// [`Gleam::compare_example`] put in the work directory.
    fn gleam_in_root(&self, project: &Path, command: &str) -> Result<()> {
        let script = format!(
            "cd {} && {} {command}",
            self.inside(project).display(),
            self.inside(&self.work.join("gleam")).display()
        );
        process::run(self.chroot("sh").args(["-c", &script]))
    }

    fn chroot(&self, program: &str) -> Command {
        let mut cmd = Command::new("chroot");
        cmd.arg(&self.otp_root).arg(program);
        cmd
    }

    /// `path` as seen inside the root.
    fn inside(&self, path: &Path) -> PathBuf {
        Path::new("/").join(path.strip_prefix(&self.otp_root).unwrap_or(path))
    }
}

/// What one runtime did with a run: its standard output with the logger
/// reports cut, its exit status, and its standard error.
struct Ran {
    text: String,
    status: std::process::ExitStatus,
    stderr: String,
}

impl From<std::process::Output> for Ran {
    fn from(out: std::process::Output) -> Ran {
        Ran {
            text: without_reports(&String::from_utf8_lossy(&out.stdout)),
            status: out.status,
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

impl Ran {
    /// The last ten lines of standard error, as beamr's.
    fn print_stderr_tail(&self) {
        let tail: Vec<&str> = self.stderr.lines().rev().take(10).collect();
        for line in tail.iter().rev() {
            println!("  beamr stderr: {line}");
        }
    }
}

/// `words` for a shell command line, each in single quotes.
fn shell_words(words: &[String]) -> String {
    let quoted: Vec<String> = words
        .iter()
        .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
        .collect();
    quoted.join(" ")
}

/// The modules a package's `test/` directory makes: its `.gleam` files
/// (`a/b.gleam` is `a@b`) and `.erl` files.
fn test_modules(test: &Path) -> Vec<String> {
    let mut modules = Vec::new();
    for file in files_with_extension(test, "gleam", true) {
        if let Ok(rel) = file.with_extension("").strip_prefix(test) {
            modules.push(rel.to_string_lossy().replace('/', "@"));
        }
    }
    for file in files_with_extension(test, "erl", true) {
        if let Some(stem) = file.file_stem().and_then(|s| s.to_str()) {
            modules.push(stem.to_string());
        }
    }
    modules
}

/// The files under `dir` ending in `.ext` (in subdirectories too when
/// `deep`), sorted.
fn files_with_extension(dir: &Path, ext: &str, deep: bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return found;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if deep {
                found.extend(files_with_extension(&path, ext, true));
            }
        } else if path.extension().is_some_and(|e| e == ext) {
            found.push(path);
        }
    }
    found.sort();
    found
}

/// Copies the directory `from` to `to`, recursively.
pub(crate) fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to).map_err(|e| Error::new(format!("{}: {e}", to.display())))?;
    let entries = fs::read_dir(from).map_err(|e| Error::new(format!("{}: {e}", from.display())))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let target = to.join(entry.file_name());
        if path.is_dir() {
            copy_dir(&path, &target)?;
        } else {
            fs::copy(&path, &target)
                .map_err(|e| Error::new(format!("copying {}: {e}", path.display())))?;
        }
    }
    Ok(())
}

/// The suites listed as still differing, with their reasons (`NAME:
/// reason` lines; `#` starts a comment).
fn known_failures(file: &Path) -> Result<Vec<(String, String)>> {
    let text = match fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::new(format!("{}: {e}", file.display()))),
    };
    let mut known = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, why) = line.split_once(':').ok_or_else(|| {
            Error::new(format!(
                "{}: expected `NAME: reason`, got `{line}`",
                file.display()
            ))
        })?;
        known.push((name.trim().to_string(), why.trim().to_string()));
    }
    Ok(known)
}

/// The logger reports' headers (`=SUPERVISOR REPORT==== ... ===`).
const REPORT_KINDS: [&str; 7] = [
    "SUPERVISOR",
    "ERROR",
    "CRASH",
    "PROGRESS",
    "WARNING",
    "INFO",
    "NOTICE",
];

/// `out` with every logger report cut out: from its header (which may
/// follow gleeunit's dots on a line) through the blank line that ends it.
fn without_reports(out: &str) -> String {
    let mut text = out.to_string();
    loop {
        let start = REPORT_KINDS
            .iter()
            .filter_map(|kind| text.find(&format!("={kind} REPORT==== ")))
            .min();
        let Some(start) = start else {
            return text;
        };
        let end = text[start..]
            .find("\n\n")
            .map_or(text.len(), |i| start + i + 2);
        text.replace_range(start..end, "");
    }
}

/// The last non-empty line of a suite's output, its colours removed.
fn summary_line(out: &str) -> String {
    let last = out
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let mut plain = String::new();
    let mut chars = last.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // An ANSI colour: ESC [ ... m.
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            plain.push(c);
        }
    }
    format!("`{}`", plain.trim())
}

fn report_difference(erl: &str, beamr: &str) {
    let (e, b): (Vec<&str>, Vec<&str>) = (erl.lines().collect(), beamr.lines().collect());
    let first = e
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(e.len().min(b.len()));
    println!("  first difference at line {}:", first + 1);
    for line in e.iter().skip(first).take(8) {
        println!("  - {}", truncate(line));
    }
    for line in b.iter().skip(first).take(8) {
        println!("  + {}", truncate(line));
    }
}

fn truncate(line: &str) -> String {
    line.chars().take(300).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_are_cut_even_after_dots_on_a_line() {
        let out = "..=SUPERVISOR REPORT==== 1-Jan ===\n    x: y\n\n=ERROR REPORT==== t ===\nz\n\n..\n3 passed\n";
        assert_eq!(without_reports(out), "....\n3 passed\n");
    }

    #[test]
    fn a_report_at_the_end_is_cut_to_the_end() {
        assert_eq!(without_reports("ok\n=CRASH REPORT==== t ===\nrest"), "ok\n");
    }

    #[test]
    fn the_summary_line_loses_its_colours() {
        assert_eq!(
            summary_line("..\n\u{1b}[32m62 passed\u{1b}[39m\n\n"),
            "`62 passed`"
        );
    }

    #[test]
    fn test_modules_are_named_by_their_path() {
        let dir = std::env::temp_dir().join(format!("beamr-gleam-tests-{}", std::process::id()));
        fs::create_dir_all(dir.join("gleam/erlang")).unwrap();
        fs::write(dir.join("gleam/erlang/process_test.gleam"), "").unwrap();
        fs::write(dir.join("helper_ffi.erl"), "").unwrap();
        let mut modules = test_modules(&dir);
        modules.sort();
        assert_eq!(modules, ["gleam@erlang@process_test", "helper_ffi"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
