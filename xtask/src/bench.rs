//! `cargo xtask bench`: runs the peer workloads (`../shared/bench/*.erl`) on
//! the BEAM and on beamr in one go and prints, per workload, both times and
//! their ratio.
//!
//! Each workload's `main/0` prints one line that ends with `<N> us`, the time
//! its work took as measured inside the program. Everything it prints before
//! the time is the result, which must be the same on both runtimes: a
//! difference is a failure (reported with both outputs), as is a crash, a
//! timeout, or output that does not end in a time. Steps:
//!
//! 1. `cargo build --release -p beamr-cli` (timings need a release build);
//! 2. `erlc` the workloads into `target/bench/beam/` (only the stale ones);
//! 3. per workload and per repetition, run `erl -noshell -pa DIR -s MOD main
//!    -s init stop`, then `beamr run -e MOD DIR`, back to back so that both
//!    see the same machine load;
//! 4. print the table: the median time of each side and beamr/BEAM.
//!
//! Workloads that need what beamr does not have yet are listed as skipped
//! ([`SKIPPED`]).

use crate::process;
use crate::{Error, Result};
use std::ffi::OsString;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// Workloads not run, and why.
pub const SKIPPED: [(&str, &str); 1] = [(
    "traced",
    "it measures the BEAM's tracing (dbg), which beamr does not implement yet",
)];

/// The environment variable that overrides where the workloads are.
pub const DIR_VAR: &str = "BEAMR_BENCH_DIR";

/// A ratio above this gets a note in the table (issue 15 asks for the why).
const SLOW_RATIO: f64 = 5.0;

/// Options of one `cargo xtask bench`.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    /// Runs per workload and runtime; the median time is reported.
    pub repeat: usize,
    /// Where the `.erl` workloads are (default `<root>/../shared/bench`).
    pub dir: Option<PathBuf>,
    /// Only these workloads (all when empty).
    pub only: Vec<String>,
    /// Longest a single run may take.
    pub timeout: Duration,
    /// `-S N` for beamr (default: its own, one scheduler per core).
    pub schedulers: Option<usize>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            repeat: 1,
            dir: None,
            only: Vec::new(),
            timeout: Duration::from_secs(300),
            schedulers: None,
        }
    }
}

/// Parses the arguments after `bench`.
pub fn parse(args: &[OsString]) -> Result<Options> {
    let mut options = Options::default();
    let mut args = args.iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(arg) = args.next() {
        let mut value = |name: &str| {
            args.next()
                .ok_or_else(|| Error::new(format!("bench: {name} needs a value")))
        };
        match arg.as_str() {
            "-n" | "--repeat" => {
                options.repeat = positive(&arg, &value(&arg)?)?;
            }
            "--dir" => options.dir = Some(PathBuf::from(value(&arg)?)),
            "--timeout" => {
                options.timeout = Duration::from_secs(positive(&arg, &value(&arg)?)? as u64);
            }
            "-S" | "--schedulers" => {
                options.schedulers = Some(positive(&arg, &value(&arg)?)?);
            }
            flag if flag.starts_with('-') => {
                return Err(Error::new(format!("bench: unknown option `{flag}`")));
            }
            name => options.only.push(name.trim_end_matches(".erl").to_owned()),
        }
    }
    Ok(options)
}

fn positive(name: &str, value: &str) -> Result<usize> {
    match value.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(Error::new(format!(
            "bench: {name} takes a positive number (got `{value}`)"
        ))),
    }
}

/// One workload's line split into the result and the time.
#[derive(Debug, PartialEq, Eq)]
struct Line {
    result: String,
    micros: u64,
}

/// Splits `text` (a program's standard output) into its result and time:
/// it must end with `<digits> us`; the result is everything before that, so
/// that any other output a runtime prints differently counts as a mismatch.
fn parse_line(text: &str) -> Option<Line> {
    let rest = text.trim_end().strip_suffix(" us")?;
    let digits_at = rest
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    let micros = rest[digits_at..].parse().ok()?;
    let result = rest[..digits_at].trim().to_owned();
    Some(Line { result, micros })
}

/// The median of `times` (the mean of the middle two for an even count).
fn median(times: &mut [u64]) -> u64 {
    times.sort_unstable();
    let n = times.len();
    if n == 0 {
        0
    } else if n % 2 == 1 {
        times[n / 2]
    } else {
        (times[n / 2 - 1] + times[n / 2]) / 2
    }
}

/// `1234567` microseconds as `1.235 s`, `12.3 ms`...
fn human(micros: u64) -> String {
    if micros >= 1_000_000 {
        format!("{:.3} s", micros as f64 / 1e6)
    } else if micros >= 1_000 {
        format!("{:.1} ms", micros as f64 / 1e3)
    } else {
        format!("{micros} us")
    }
}

/// What one run printed, or why it did not count.
struct RunOutput {
    stdout: String,
    stderr: String,
    success: bool,
    timed_out: bool,
}

/// Runs `cmd` with its output captured, killing it after `timeout`.
fn run_captured(cmd: &mut Command, timeout: Duration) -> Result<RunOutput> {
    let shown = process::display(cmd);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| Error::new(format!("could not start `{shown}`: {err}")))?;
    let reader = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let out = reader(Box::new(child.stdout.take().expect("piped")));
    let err = reader(Box::new(child.stderr.take().expect("piped")));
    let deadline = Instant::now() + timeout;
    let (status, timed_out) = loop {
        match child.try_wait() {
            Ok(Some(status)) => break (Some(status), false),
            Ok(None) if Instant::now() >= deadline => {
                let _ = child.kill();
                break (child.wait().ok(), true);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(err) => return Err(Error::new(format!("waiting for `{shown}`: {err}"))),
        }
    };
    Ok(RunOutput {
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        success: status.is_some_and(|s| s.success()) && !timed_out,
        timed_out,
    })
}

/// The last `n` lines of `text`, indented, for an error message.
fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(n);
    lines[start..]
        .iter()
        .map(|l| format!("      {l}\n"))
        .collect()
}

/// One run of one workload on one runtime: its result line, or why not.
fn measure(
    runtime: &str,
    cmd: &mut Command,
    timeout: Duration,
) -> std::result::Result<Line, String> {
    let shown = process::display(cmd);
    let out = run_captured(cmd, timeout).map_err(|e| e.to_string())?;
    if out.timed_out {
        return Err(format!(
            "{runtime} took longer than {}s: `{shown}`",
            timeout.as_secs()
        ));
    }
    if !out.success {
        return Err(format!(
            "{runtime} failed: `{shown}`\n    stdout:\n{}    stderr:\n{}",
            tail(&out.stdout, 10),
            tail(&out.stderr, 10)
        ));
    }
    parse_line(&out.stdout).ok_or_else(|| {
        format!(
            "{runtime}'s output does not end in `<N> us`: `{shown}`\n    stdout:\n{}",
            tail(&out.stdout, 10)
        )
    })
}

/// A workload's outcome over every repetition.
enum Outcome {
    /// Same result on both; median times.
    Ok {
        result: String,
        beamr: u64,
        beam: u64,
    },
    /// Different results, a crash, a timeout...
    Failed(String),
}

/// The workloads to run (stems of `dir/*.erl`, minus the skipped ones,
/// filtered by `only`), and the skipped ones present.
fn workloads(dir: &Path, only: &[String]) -> Result<(Vec<String>, Vec<String>)> {
    let entries = fs::read_dir(dir).map_err(|err| {
        Error::new(format!(
            "reading the workloads in {}: {err} (set {DIR_VAR} or pass --dir)",
            dir.display()
        ))
    })?;
    let mut names: Vec<String> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "erl"))
        .filter_map(|p| p.file_stem()?.to_str().map(str::to_owned))
        .collect();
    names.sort();
    if let Some(unknown) = only.iter().find(|o| !names.contains(o)) {
        return Err(Error::new(format!(
            "bench: no workload `{unknown}` in {} (there are: {})",
            dir.display(),
            names.join(", ")
        )));
    }
    let (skipped, run): (Vec<String>, Vec<String>) = names
        .into_iter()
        .filter(|n| only.is_empty() || only.contains(n))
        .partition(|n| SKIPPED.iter().any(|(s, _)| s == n));
    Ok((run, skipped))
}

/// Builds beamr in release mode; returns the path of the `beamr` binary, as
/// cargo reports it (so `CARGO_TARGET_DIR` and cargo config are honoured).
fn build_beamr(root: &Path) -> Result<PathBuf> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| OsString::from("cargo"));
    let mut cmd = Command::new(cargo);
    cmd.current_dir(root).args([
        "build",
        "--release",
        "-p",
        "beamr-cli",
        "--bin",
        "beamr",
        "--message-format=json-render-diagnostics",
    ]);
    println!("$ {}", process::display(&cmd));
    let out = cmd
        .stderr(Stdio::inherit())
        .output()
        .map_err(|err| Error::new(format!("could not start cargo: {err}")))?;
    if !out.status.success() {
        return Err(Error::new(format!(
            "building beamr failed ({})",
            out.status
        )));
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout
        .lines()
        .filter(|l| l.contains("\"compiler-artifact\""))
        .filter_map(|l| json_string_field(l, "executable"))
        .map(PathBuf::from)
        .find(|p| p.file_stem().is_some_and(|s| s == "beamr"))
        .ok_or_else(|| Error::new("cargo built beamr-cli but reported no `beamr` executable"))
}

/// The value of the string field `name` in one line of cargo's JSON output
/// (enough JSON for cargo's messages: escapes `\"`, `\\`, `\/`).
fn json_string_field(line: &str, name: &str) -> Option<String> {
    let key = format!("\"{name}\":\"");
    let start = line.find(&key)? + key.len();
    let mut value = String::new();
    let mut chars = line[start..].chars();
    loop {
        match chars.next()? {
            '"' => return Some(value),
            '\\' => match chars.next()? {
                'n' => value.push('\n'),
                't' => value.push('\t'),
                other => value.push(other),
            },
            c => value.push(c),
        }
    }
}

/// The folder under `target/bench/` for the `.beam` files of the workloads
/// in `dir`: its name and a hash of its path, so that workloads of another
/// folder never pass for fresh ones of the same name.
fn beam_dir_name(dir: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    dir.hash(&mut hasher);
    let name = dir
        .file_name()
        .map_or_else(|| "bench".into(), |n| n.to_string_lossy().into_owned());
    format!("{name}-{:08x}", hasher.finish() as u32)
}

/// Compiles the stale workloads of `src` into `out`.
fn compile(src: &Path, names: &[String], out: &Path) -> Result<()> {
    fs::create_dir_all(out)
        .map_err(|err| Error::new(format!("creating {}: {err}", out.display())))?;
    let mtime =
        |p: &Path| -> Option<SystemTime> { fs::metadata(p).and_then(|m| m.modified()).ok() };
    let stale: Vec<PathBuf> = names
        .iter()
        .map(|n| src.join(format!("{n}.erl")))
        .filter(|erl| {
            let beam = out.join(format!(
                "{}.beam",
                erl.file_stem().unwrap_or_default().to_string_lossy()
            ));
            match (mtime(erl), mtime(&beam)) {
                (Some(s), Some(b)) => s > b,
                _ => true,
            }
        })
        .collect();
    if stale.is_empty() {
        return Ok(());
    }
    process::run(Command::new("erlc").arg("-o").arg(out).args(&stale))
        .map_err(|err| Error::new(format!("compiling the workloads failed: {err}")))
}

/// Runs the benchmarks and prints the table; fails if any workload failed.
pub fn run(root: &Path, options: &Options) -> Result<()> {
    let dir = match (&options.dir, std::env::var_os(DIR_VAR)) {
        (Some(dir), _) => dir.clone(),
        (None, Some(dir)) => PathBuf::from(dir),
        (None, None) => root.join("..").join("shared").join("bench"),
    };
    let dir = fs::canonicalize(&dir).unwrap_or(dir);
    let (names, skipped) = workloads(&dir, &options.only)?;
    let beamr = build_beamr(root)?;
    let beam_dir = root.join("target").join("bench").join(beam_dir_name(&dir));
    compile(&dir, &names, &beam_dir)?;
    let beam_dir = fs::canonicalize(&beam_dir)
        .map_err(|err| Error::new(format!("resolving {}: {err}", beam_dir.display())))?;

    println!(
        "bench: {} workload(s) from {}, {} run(s) each on erl and on beamr ({}), median times",
        names.len(),
        dir.display(),
        options.repeat,
        beamr.display()
    );
    for name in &skipped {
        let why = SKIPPED.iter().find(|(s, _)| s == name).map_or("", |s| s.1);
        println!("bench: skipping {name}: {why}");
    }

    let mut outcomes = Vec::new();
    for name in &names {
        let outcome = bench_one(name, &beamr, &beam_dir, options);
        match &outcome {
            Outcome::Ok { beamr, beam, .. } => println!(
                "  {name:<12} beamr {:>10}  BEAM {:>10}",
                human(*beamr),
                human(*beam)
            ),
            Outcome::Failed(why) => println!("  {name:<12} FAILED: {why}"),
        }
        outcomes.push((name.clone(), outcome));
    }

    print_table(&outcomes, &skipped);
    let failed: Vec<&str> = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, Outcome::Failed(_)))
        .map(|(n, _)| n.as_str())
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Error::new(format!(
            "bench: {} workload(s) failed: {}",
            failed.len(),
            failed.join(", ")
        )))
    }
}

fn bench_one(name: &str, beamr: &Path, beam_dir: &Path, options: &Options) -> Outcome {
    let mut beamr_times = Vec::new();
    let mut beam_times = Vec::new();
    let mut result = None;
    for _ in 0..options.repeat {
        let mut erl = Command::new("erl");
        erl.arg("-noshell")
            .arg("-pa")
            .arg(beam_dir)
            .args(["-s", name, "main", "-s", "init", "stop"]);
        let mut ours = Command::new(beamr);
        ours.arg("run");
        if let Some(n) = options.schedulers {
            ours.arg("-S").arg(n.to_string());
        }
        ours.arg("-e").arg(name).arg(beam_dir);

        let theirs = match measure("erl", &mut erl, options.timeout) {
            Ok(line) => line,
            Err(why) => return Outcome::Failed(why),
        };
        let mine = match measure("beamr", &mut ours, options.timeout) {
            Ok(line) => line,
            Err(why) => return Outcome::Failed(why),
        };
        if mine.result != theirs.result {
            return Outcome::Failed(format!(
                "results differ\n    erl:   {}\n    beamr: {}",
                theirs.result, mine.result
            ));
        }
        if let Some(previous) = &result {
            if *previous != theirs.result {
                return Outcome::Failed(format!(
                    "erl's result changed between runs: `{previous}`, then `{}`",
                    theirs.result
                ));
            }
        }
        result = Some(theirs.result);
        beamr_times.push(mine.micros);
        beam_times.push(theirs.micros);
    }
    Outcome::Ok {
        result: result.unwrap_or_default(),
        beamr: median(&mut beamr_times),
        beam: median(&mut beam_times),
    }
}

fn ratio(beamr: u64, beam: u64) -> f64 {
    beamr as f64 / beam.max(1) as f64
}

fn print_table(outcomes: &[(String, Outcome)], skipped: &[String]) {
    println!();
    println!(
        "| {:<12} | {:>10} | {:>10} | {:>7} | result",
        "workload", "beamr", "BEAM", "ratio"
    );
    println!("|{:-<14}|{:->12}|{:->12}|{:->9}|--------", "", "", "", "");
    let mut slow = Vec::new();
    for (name, outcome) in outcomes {
        match outcome {
            Outcome::Ok {
                result,
                beamr,
                beam,
            } => {
                let r = ratio(*beamr, *beam);
                if r > SLOW_RATIO {
                    slow.push(name.as_str());
                }
                println!(
                    "| {name:<12} | {:>10} | {:>10} | {:>6.2}x | {}",
                    human(*beamr),
                    human(*beam),
                    r,
                    result.replace('\n', " / ")
                );
            }
            Outcome::Failed(_) => println!(
                "| {name:<12} | {:>10} | {:>10} | {:>7} | FAILED (see above)",
                "-", "-", "-"
            ),
        }
    }
    for name in skipped {
        println!(
            "| {name:<12} | {:>10} | {:>10} | {:>7} | skipped",
            "-", "-", "-"
        );
    }
    if !slow.is_empty() {
        println!(
            "bench: more than {SLOW_RATIO}x slower than the BEAM: {}",
            slow.join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_options_and_names() {
        let o = parse(&args(&["-n", "3", "fib", "ring.erl", "--timeout", "9"])).unwrap();
        assert_eq!(o.repeat, 3);
        assert_eq!(o.only, vec!["fib".to_owned(), "ring".to_owned()]);
        assert_eq!(o.timeout, Duration::from_secs(9));
        assert_eq!(parse(&args(&[])).unwrap(), Options::default());
        assert!(parse(&args(&["-n", "0"])).is_err());
        assert!(parse(&args(&["-n"])).is_err());
        assert!(parse(&args(&["--bogus"])).is_err());
    }

    #[test]
    fn splits_result_and_time() {
        assert_eq!(
            parse_line("fib 30 = 832040 22486 us\n"),
            Some(Line {
                result: "fib 30 = 832040".into(),
                micros: 22486
            })
        );
        assert_eq!(
            parse_line("noise\nring 10000 100 done 1263104 us\n\n"),
            Some(Line {
                result: "noise\nring 10000 100 done".into(),
                micros: 1263104
            })
        );
        assert_eq!(parse_line("fib 30 = many us"), None);
        assert_eq!(parse_line("fib 30 = 832040 ms"), None);
        assert_eq!(parse_line("no time here"), None);
        assert_eq!(parse_line(""), None);
    }

    #[test]
    fn medians_and_units() {
        assert_eq!(median(&mut [5, 1, 3]), 3);
        assert_eq!(median(&mut [4, 1, 3, 2]), 2);
        assert_eq!(median(&mut []), 0);
        assert_eq!(human(999), "999 us");
        assert_eq!(human(22_486), "22.5 ms");
        assert_eq!(human(1_263_104), "1.263 s");
    }

    #[test]
    fn reads_cargo_json_strings() {
        let line =
            r#"{"reason":"compiler-artifact","executable":"/t/a\\b \"c\"/beamr","fresh":true}"#;
        assert_eq!(
            json_string_field(line, "executable").as_deref(),
            Some(r#"/t/a\b "c"/beamr"#)
        );
        assert_eq!(json_string_field(line, "missing"), None);
    }

    #[test]
    fn each_workload_folder_compiles_into_its_own() {
        let a = beam_dir_name(Path::new("/work/shared/bench"));
        assert!(a.starts_with("bench-"), "{a}");
        assert_eq!(a, beam_dir_name(Path::new("/work/shared/bench")));
        assert_ne!(a, beam_dir_name(Path::new("/tmp/other/bench")));
    }

    #[cfg(unix)]
    #[test]
    fn captures_output_and_times_out() {
        let out = run_captured(
            Command::new("sh").args(["-c", "echo hi; echo err >&2"]),
            Duration::from_secs(10),
        )
        .unwrap();
        assert!(out.success && !out.timed_out);
        assert_eq!(out.stdout, "hi\n");
        assert_eq!(out.stderr, "err\n");
        let out = run_captured(
            Command::new("sh").args(["-c", "exec sleep 5"]),
            Duration::from_millis(100),
        )
        .unwrap();
        assert!(out.timed_out && !out.success);
    }
}
