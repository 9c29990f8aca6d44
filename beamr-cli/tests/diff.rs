//! The differential suite: every `tests/diff/NAME.erl` (a module `NAME`
//! exporting `main/0`) runs on `erl` and on `beamr run`, and both must print
//! the same bytes on standard output and exit with the same status.
//!
//! ```text
//! tests/diff/NAME.erl          one small program per behaviour, named by area
//! tests/diff/KNOWN_FAILURES    `NAME  reason` lines: run, reported as ignored
//! <target tmp>/diff/NAME.beam  erlc output (recompiled when the source is newer)
//! ```
//!
//! Protocol, per program (one named test each, so a failure names it):
//!
//! 1. `erl -noshell -pa DIR -s NAME main -s init stop`, in a scratch
//!    directory with crash dumps off: the expected output, produced at test
//!    time and never stored.
//! 2. `beamr run -e NAME DIR`: the actual output.
//! 3. Standard output must be byte-identical and the exit status equal
//!    (0 when `main` returns; 1 on both when it crashes). Each run is killed
//!    after [`TIME_LIMIT`].
//!
//! A program listed in `KNOWN_FAILURES` still runs: a mismatch is reported
//! as ignored with the listed reason; a match fails the test, so that the
//! list never outlives the bug.
//!
//! The modules are compiled with one `erlc` run from the workspace root, with
//! the source given as `tests/diff/NAME.erl`: that is the file name stack
//! traces show on both runtimes.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant, SystemTime};

use libtest_mimic::{Arguments, Completion, Failed, Trial};

/// How long one run of one program may take on either runtime.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// Programs run at once per core (see `main`).
const THREADS_PER_CORE: usize = 2;

/// Lines of context shown around the first difference.
const CONTEXT: usize = 3;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("beamr-cli lives one level below the workspace root")
        .to_path_buf()
}

/// The programs' names, sorted.
fn programs(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| {
                    let path = e.path();
                    (path.extension()? == "erl")
                        .then(|| path.file_stem()?.to_str().map(str::to_owned))?
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// `KNOWN_FAILURES`: `NAME  reason` per line; lines starting with `#` are
/// comments.
fn known_failures(dir: &Path) -> BTreeMap<String, String> {
    let text = fs::read_to_string(dir.join("KNOWN_FAILURES")).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (name, reason) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            (name.to_owned(), reason.trim().to_owned())
        })
        .collect()
}

fn mtime(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Compiles the programs whose `.beam` is missing or older than the source
/// into `out`; returns erlc's complaints (empty when it succeeded).
fn compile(root: &Path, names: &[String], out: &Path) -> String {
    fs::create_dir_all(out).expect("creating the output directory");
    let stale: Vec<String> = names
        .iter()
        .filter(|name| {
            let src = root.join("tests/diff").join(format!("{name}.erl"));
            let beam = out.join(format!("{name}.beam"));
            match (mtime(&src), mtime(&beam)) {
                (Some(s), Some(b)) => s > b,
                _ => true,
            }
        })
        .map(|name| format!("tests/diff/{name}.erl"))
        .collect();
    if stale.is_empty() {
        return String::new();
    }
    match Command::new("erlc")
        .current_dir(root)
        .arg("-o")
        .arg(out)
        .args(&stale)
        .stdin(Stdio::null())
        .output()
    {
        Ok(o) if o.status.success() => String::new(),
        Ok(o) => format!(
            "erlc failed ({}):\n{}{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
        Err(e) => {
            format!("cannot run erlc ({e}); install Erlang/OTP or run `cargo xtask test-all`")
        }
    }
}

/// What one runtime did with one program.
struct Run {
    status: ExitStatus,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

/// Runs `cmd`, reading its output meanwhile; kills it after [`TIME_LIMIT`].
fn run(mut cmd: Command, what: &str) -> Result<Run, Failed> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Failed::from(format!("cannot start {what}: {e}")))?;
    let drain = |mut r: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = r.read_to_end(&mut bytes);
            bytes
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let err = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("waiting for a child") {
            break status;
        }
        if started.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{what} did not finish within {TIME_LIMIT:?}").into());
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Ok(Run {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    })
}

/// Where the two outputs first differ, with context, or `None` if equal.
fn difference(expected: &[u8], actual: &[u8]) -> Option<String> {
    if expected == actual {
        return None;
    }
    let exp = String::from_utf8_lossy(expected);
    let act = String::from_utf8_lossy(actual);
    let (e, a): (Vec<&str>, Vec<&str>) = (exp.split('\n').collect(), act.split('\n').collect());
    let first = e.iter().zip(&a).take_while(|(x, y)| x == y).count();
    let from = first.saturating_sub(CONTEXT);
    let mut text = format!("stdout differs at line {}:\n", first + 1);
    for line in &e[from..first] {
        text.push_str(&format!("    {line}\n"));
    }
    for line in e.iter().skip(first).take(CONTEXT * 2) {
        text.push_str(&format!("  - {line:?}\n"));
    }
    for line in a.iter().skip(first).take(CONTEXT * 2) {
        text.push_str(&format!("  + {line:?}\n"));
    }
    text.push_str("(- is erl, + is beamr)");
    Some(text)
}

/// Both runtimes on `name`; `Err` describes how they differ.
fn check(name: &str, beams: &Path, scratch: &Path) -> Result<(), Failed> {
    if !beams.join(format!("{name}.beam")).is_file() {
        return Err(format!("{name}.beam was not built (see erlc's errors)").into());
    }
    let mut erl = Command::new("erl");
    erl.current_dir(scratch)
        .env("ERL_CRASH_DUMP_SECONDS", "0")
        .arg("-noshell")
        .arg("-pa")
        .arg(beams)
        .args(["-s", name, "main", "-s", "init", "stop"]);
    let expected = run(erl, "erl")?;
    let mut beamr = Command::new(env!("CARGO_BIN_EXE_beamr"));
    beamr
        .current_dir(scratch)
        .args(["run", "-e", name])
        .arg(beams);
    let actual = run(beamr, "beamr")?;
    let mut problems = Vec::new();
    if expected.status.code() != actual.status.code() {
        problems.push(format!(
            "exit status: erl {}, beamr {}",
            expected.status, actual.status
        ));
    }
    if let Some(diff) = difference(&expected.stdout, &actual.stdout) {
        problems.push(diff);
    }
    if problems.is_empty() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&actual.stderr);
    if !stderr.trim().is_empty() {
        let tail: Vec<&str> = stderr.lines().rev().take(10).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        problems.push(format!("beamr's stderr ends:\n{}", tail.join("\n")));
    }
    Err(problems.join("\n").into())
}

fn main() {
    let mut args = Arguments::from_args();
    // A run mostly waits for erl to boot (about a second of wall time for a
    // fraction of that in CPU), so run more programs at once than there are
    // cores unless told otherwise.
    if args.test_threads.is_none() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        args.test_threads = Some(cores * THREADS_PER_CORE);
    }
    let root = workspace_root();
    let sources = root.join("tests/diff");
    let names = programs(&sources);
    let known = known_failures(&sources);
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("diff");
    let beams = tmp.join("beam");
    let scratch = tmp.join("run");
    fs::create_dir_all(&scratch).expect("creating the scratch directory");
    let complaints = compile(&root, &names, &beams);
    if !complaints.is_empty() {
        eprintln!("{complaints}");
    }
    let mut trials: Vec<Trial> = names
        .iter()
        .map(|name| {
            let (name, beams, scratch) = (name.clone(), beams.clone(), scratch.clone());
            let reason = known.get(&name).cloned();
            Trial::ignorable_test(name.clone(), move || {
                let result = check(&name, &beams, &scratch);
                match (result, reason) {
                    (Ok(()), None) => Ok(Completion::Completed),
                    (Err(e), None) => Err(e),
                    (Err(_), Some(reason)) => Ok(Completion::ignored_with(reason)),
                    (Ok(()), Some(_)) => Err(format!(
                        "{name} is listed in tests/diff/KNOWN_FAILURES but now passes: \
                         remove it from the list"
                    )
                    .into()),
                }
            })
        })
        .collect();
    for name in known.keys().filter(|k| !names.contains(k)) {
        let name = name.clone();
        trials.push(Trial::test(format!("KNOWN_FAILURES/{name}"), move || {
            Err(
                format!("KNOWN_FAILURES lists {name}, but tests/diff/{name}.erl does not exist")
                    .into(),
            )
        }));
    }
    libtest_mimic::run(&args, trials).exit();
}
