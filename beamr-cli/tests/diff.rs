//! The differential suite: every `tests/diff/NAME.erl` (a module `NAME`
//! exporting `main/0`) runs on `erl` and on `beamr run`, and both must print
//! the same bytes on standard output and exit with the same status.
//!
//! ```text
//! tests/diff/NAME.erl          one small program per behaviour, named by area
//! tests/diff/lib/MOD.erl       a module programs share (no `main/0`, no trial)
//! tests/diff/KNOWN_FAILURES    `NAME  reason` lines: run, reported as ignored
//! <target tmp>/diff/NAME.beam  erlc output (recompiled when the source is newer)
//! ```
//!
//! The shared modules are compiled beside the programs, so both runtimes
//! find them on the programs' code path; a program's trial is broken when
//! one of them was not built (a missing module would crash both runs alike,
//! and that comparison would pass).
//!
//! Protocol, per program (one named test each, so a failure names it):
//!
//! 1. `erl -noshell -pa DIR -s NAME main -s init stop`, in a scratch
//!    directory with crash dumps off: the expected output, produced at test
//!    time and never stored.
//! 2. `beamr run -e NAME DIR`: the actual output.
//! 3. Standard output must be byte-identical and the exit code equal
//!    (0 when `main` returns; 1 on both when it crashes), once the logger's
//!    reports are masked on both: their timestamps, the pids in them and a
//!    crash report's heap, stack and reduction counts, nothing else (see
//!    `diff_mask`). Each run is killed after [`TIME_LIMIT`].
//!
//! A program may ask for an environment and for plain arguments with
//! comment lines of its own (the same for both runtimes):
//!
//! ```text
//! %% diff-env: TZ=EST5EDT      NAME=VALUE set for both runs (one per line)
//! %% diff-args: a "b c"        erl gets `-extra a b c`, beamr `-- a b c`
//! ```
//!
//! (arguments are split at spaces; no quoting).
//!
//! A program that only compiles on a newer release (OTP 29's native
//! records, say) says so on a line of its own:
//!
//! ```text
//! %% diff-requires-otp: 29     skipped, and not compiled, on an older release
//! ```
//!
//! On an older release the program is neither compiled (one program erlc
//! refuses would leave the others unbuilt) nor run: its trial is reported
//! as ignored, naming the release it needs and the one it would run on.
//!
//! A program `NAME.erl` with a file `NAME.stdin` beside it gets that
//! file's bytes on standard input on both runtimes (which then read its
//! end); without one, standard input is empty.
//!
//! Nothing passes without comparing: the suite fails before running
//! anything when `tests/diff` cannot be read or holds no program (or
//! `KNOWN_FAILURES` exists but cannot be read), and a trial fails, whatever
//! `KNOWN_FAILURES` says, when its program was not built, either runtime
//! could not start, timed out or was ended by a signal (no exit code), or
//! erl did not run the program (no `main/0`, or nothing printed).
//!
//! A program listed in `KNOWN_FAILURES` still runs: when both runs complete
//! and differ, it is reported as ignored with the listed reason; a match
//! fails the test, so that the list never outlives the bug.
//!
//! The modules are compiled with one `erlc` run from the workspace root, with
//! the source given as `tests/diff/NAME.erl`: that is the file name stack
//! traces show on both runtimes. A stale `.beam` is deleted first, so a
//! program that stops compiling fails instead of running its old version.
//!
//! The harness's own checks run first as trials named `harness::...`;
//! libtest's name filter selects programs (`cargo test -p beamr-cli --test
//! diff -- proc_`).
//!
//! # Another OTP release
//!
//! With `BEAMR_DIFF_OTP_ROOT=DIR` set, DIR is a root of its own holding
//! another Erlang/OTP (a Debian root made by `debootstrap`, as `cargo xtask
//! test-all` makes under `target/otp/`): `erlc` and `erl` run there through
//! `chroot DIR`, the sources are copied to `DIR/tmp/beamr-diff-HASH/src` and
//! the `.beam` files are written to `DIR/tmp/beamr-diff-HASH/beam` (HASH
//! names the workspace), and beamr runs
//! with `BEAMR_OTP_ROOT=DIR/usr/lib/erlang`, so both runtimes use that
//! release's own library. The release is read from
//! `DIR/usr/lib/erlang/releases/`; `KNOWN_FAILURES.otpNN` lists what still
//! differs on release NN only, on top of `KNOWN_FAILURES`. chroot needs root.

use std::collections::BTreeMap;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant, SystemTime};

use libtest_mimic::{Arguments, Completion, Failed, Trial};

mod diff_mask;
use diff_mask::mask_reports;

/// How long one run of one program may take on either runtime before it
/// is killed: a guard against a hung run, never a measure of speed. The
/// slowest programs take a few seconds on an idle machine (debug beamr);
/// CI runs `THREADS_PER_CORE` of them per core on a loaded two-core
/// machine, so the limit is far beyond that.
const TIME_LIMIT: Duration = Duration::from_secs(120);

/// Programs run at once per core (see `main`).
const THREADS_PER_CORE: usize = 2;

/// Lines of context shown around the first difference.
const CONTEXT: usize = 3;

/// Lines of a runtime's standard error shown when a trial fails.
const STDERR_TAIL: usize = 10;

/// The variable naming another OTP's root (see the module doc).
const OTP_ROOT_VAR: &str = "BEAMR_DIFF_OTP_ROOT";

/// Where the work happens inside another OTP's root, relative to it: one
/// directory per workspace (`tmp/beamr-diff-HASH`), so that checkouts
/// sharing a root never compare against each other's compiled programs.
fn in_root(workspace: &Path) -> PathBuf {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    workspace.hash(&mut hasher);
    PathBuf::from(format!("tmp/beamr-diff-{:016x}", hasher.finish()))
}

/// Which Erlang/OTP the programs are compiled and compared with.
#[derive(Clone, Debug)]
enum Otp {
    /// `erl` and `erlc` on PATH, as installed on this machine.
    Host,
    /// Another release in a root of its own, run through `chroot`.
    Chroot {
        /// The root directory.
        root: PathBuf,
        /// Its OTP release (`"27"`).
        release: String,
    },
}

impl Otp {
    /// The OTP named by [`OTP_ROOT_VAR`], or the host's. An error when the
    /// root has no Erlang/OTP in it.
    fn from_env() -> Result<Otp, String> {
        let Some(root) = std::env::var_os(OTP_ROOT_VAR) else {
            return Ok(Otp::Host);
        };
        let root = fs::canonicalize(&root)
            .map_err(|e| format!("{OTP_ROOT_VAR}={}: {e}", Path::new(&root).display()))?;
        let releases = root.join("usr/lib/erlang/releases");
        let release = fs::read_dir(&releases)
            .map_err(|e| format!("{OTP_ROOT_VAR}: cannot read {}: {e}", releases.display()))?
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| !name.is_empty() && name.bytes().all(|b| b.is_ascii_digit()))
            .max_by_key(|name| name.parse::<u32>().unwrap_or(0))
            .ok_or_else(|| format!("{} names no OTP release", releases.display()))?;
        Ok(Otp::Chroot { root, release })
    }

    /// A command running `program` in `dir`, both as seen from the OTP's
    /// side (inside the root for a chroot).
    fn command(&self, program: &str, dir: &Path) -> Command {
        match self {
            Otp::Host => {
                let mut cmd = Command::new(program);
                cmd.current_dir(dir);
                cmd
            }
            Otp::Chroot { root, .. } => {
                let mut cmd = Command::new("chroot");
                cmd.arg(root)
                    .arg("env")
                    .arg("-C")
                    .arg(dir)
                    .arg("HOME=/tmp")
                    .arg("ERL_CRASH_DUMP_SECONDS=0")
                    .arg(program);
                cmd
            }
        }
    }

    /// `path` on the OTP's side (inside the root for a chroot).
    fn inside(&self, path: &Path) -> PathBuf {
        match self {
            Otp::Host => path.to_path_buf(),
            Otp::Chroot { root, .. } => match path.strip_prefix(root) {
                Ok(rel) => Path::new("/").join(rel),
                Err(_) => path.to_path_buf(),
            },
        }
    }

    /// This OTP's major release: the root's, or the host `erl`'s (asked
    /// once). An error when the host's cannot be learned.
    fn release(&self) -> Result<u32, String> {
        let text = match self {
            Otp::Chroot { release, .. } => release.clone(),
            Otp::Host => {
                let out = Command::new("erl")
                    .args(["-noshell", "-eval"])
                    .arg("io:put_chars(erlang:system_info(otp_release)), halt().")
                    .stdin(Stdio::null())
                    .output()
                    .map_err(|e| format!("cannot run erl to learn its release ({e})"))?;
                String::from_utf8_lossy(&out.stdout).trim().to_owned()
            }
        };
        text.parse()
            .map_err(|_| format!("cannot read an OTP release from {text:?}"))
    }

    /// The extra known-failures file of this release (`KNOWN_FAILURES.otp27`).
    fn known_failures_file(&self) -> Option<String> {
        match self {
            Otp::Host => None,
            Otp::Chroot { release, .. } => Some(format!("KNOWN_FAILURES.otp{release}")),
        }
    }
}

/// The workspace root (the parent of this crate's directory).
fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("beamr-cli lives one level below the workspace root")
        .to_path_buf()
}

/// The programs' names (`NAME` of each `dir/NAME.erl`), sorted. An error
/// naming `dir` when it cannot be read or holds no program: a suite of zero
/// programs would pass without testing anything.
fn programs(dir: &Path) -> Result<Vec<String>, String> {
    let names = modules(dir, "programs'", "program's")?;
    if names.is_empty() {
        return Err(format!(
            "the programs' directory {} holds no NAME.erl program",
            dir.display()
        ));
    }
    Ok(names)
}

/// The shared modules' names (`MOD` of each `dir/lib/MOD.erl`), sorted;
/// none when `dir/lib` does not exist. An error when one is named like a
/// program (both would compile to one `.beam`).
fn helpers(dir: &Path, programs: &[String]) -> Result<Vec<String>, String> {
    let lib = dir.join("lib");
    if !lib.exists() {
        return Ok(Vec::new());
    }
    let names = modules(&lib, "shared modules'", "module's")?;
    match names.iter().find(|name| programs.contains(name)) {
        Some(name) => Err(format!(
            "{} is named like the program {name}.erl",
            lib.join(format!("{name}.erl")).display()
        )),
        None => Ok(names),
    }
}

/// The sorted stems of the `.erl` files in `dir`; errors name `dir` as
/// the `whose` directory, or the file whose `what` name is not UTF-8.
fn modules(dir: &Path, whose: &str, what: &str) -> Result<Vec<String>, String> {
    let cannot = |e: io::Error| format!("cannot read the {whose} directory {}: {e}", dir.display());
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).map_err(cannot)? {
        let path = entry.map_err(cannot)?.path();
        if path.extension().is_some_and(|ext| ext == "erl") {
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .ok_or_else(|| format!("{}: the {what} name is not UTF-8", path.display()))?;
            names.push(name.to_owned());
        }
    }
    names.sort();
    Ok(names)
}

/// `dir/KNOWN_FAILURES`: `NAME  reason` per line; lines starting with `#`
/// are comments. A missing file lists nothing; one that cannot be read is
/// an error naming it.
fn known_failures(dir: &Path) -> Result<BTreeMap<String, String>, String> {
    known_failures_in(dir, "KNOWN_FAILURES")
}

/// As [`known_failures`], from `dir/file`.
fn known_failures_in(dir: &Path, file: &str) -> Result<BTreeMap<String, String>, String> {
    let path = dir.join(file);
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if e.kind() == io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (name, reason) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            (name.to_owned(), reason.trim().to_owned())
        })
        .collect())
}

/// The modification time of `path`, if it has one.
fn mtime(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Compiles the `sources` (paths relative to `root`, `tests/diff/NAME.erl`
/// and `tests/diff/lib/MOD.erl`) whose `.beam` is missing or older than the
/// source into `out`; returns erlc's complaints (empty when it succeeded).
/// A stale `.beam` is deleted first, so that a program that no longer
/// compiles has none (and its trial fails) instead of running its previous
/// version.
fn compile(otp: &Otp, root: &Path, sources: &[String], out: &Path) -> String {
    fs::create_dir_all(out).expect("creating the output directory");
    let mut stale = Vec::new();
    for source in sources {
        let src = root.join(source);
        let name = Path::new(source).file_stem().expect("a NAME.erl path");
        let beam = out.join(name).with_extension("beam");
        let fresh = matches!((mtime(&src), mtime(&beam)), (Some(s), Some(b)) if s <= b);
        if !fresh {
            match fs::remove_file(&beam) {
                Ok(()) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => {}
                Err(e) => return format!("cannot delete the stale {}: {e}", beam.display()),
            }
            stale.push(source.clone());
        }
    }
    if stale.is_empty() {
        return String::new();
    }
    // erlc runs where `tests/diff/NAME.erl` names the source: the workspace,
    // or a copy of the sources inside another OTP's root.
    let src_dir = match otp {
        Otp::Host => root.to_path_buf(),
        Otp::Chroot { root: otp_root, .. } => {
            let copy = otp_root.join(in_root(root)).join("src");
            if let Err(e) = copy_sources(root, &copy, &stale) {
                return e;
            }
            copy
        }
    };
    match otp
        .command("erlc", &otp.inside(&src_dir))
        .arg("-o")
        .arg(otp.inside(out))
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

/// What a program asks of both runs in its `%% diff-...:` lines.
#[derive(Debug, Default, PartialEq, Eq)]
struct Settings {
    /// `%% diff-env: NAME=VALUE`.
    env: Vec<(String, String)>,
    /// `%% diff-args: A B ...`: the plain arguments.
    args: Vec<String>,
    /// `%% diff-requires-otp: NN`: the oldest release the program runs on.
    requires_otp: Option<u32>,
}

/// The settings in program source `text`.
fn settings(text: &str) -> Settings {
    let mut settings = Settings::default();
    for line in text.lines() {
        if let Some(var) = line.strip_prefix("%% diff-env:") {
            if let Some((k, v)) = var.trim().split_once('=') {
                settings.env.push((k.to_owned(), v.to_owned()));
            }
        } else if let Some(release) = line.strip_prefix("%% diff-requires-otp:") {
            settings.requires_otp = release.trim().parse().ok();
        } else if let Some(args) = line.strip_prefix("%% diff-args:") {
            settings
                .args
                .extend(args.split_whitespace().map(str::to_owned));
        }
    }
    settings
}

/// Copies the sources `files` (paths relative to `root`) to the same
/// paths under `dest`.
fn copy_sources(root: &Path, dest: &Path, files: &[String]) -> Result<(), String> {
    for file in files {
        let to = dest.join(file);
        if let Some(dir) = to.parent() {
            fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
        }
        fs::copy(root.join(file), &to)
            .map_err(|e| format!("copying {file} to {}: {e}", to.display()))?;
    }
    Ok(())
}

/// What one runtime did with one program.
struct Run {
    /// The exit code; `None` when the run did not exit (a signal killed it).
    code: Option<i32>,
    /// How the run ended, as the system says it (`exit status: 1`,
    /// `signal: 9 (SIGKILL)`).
    status: String,
    /// Everything it wrote on standard output.
    stdout: Vec<u8>,
    /// Everything it wrote on standard error.
    stderr: Vec<u8>,
}

/// Reads all of `r` on a thread of its own; the bytes (or the read error)
/// arrive on the returned channel.
fn drain(mut r: impl Read + Send + 'static) -> mpsc::Receiver<io::Result<Vec<u8>>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let result = r.read_to_end(&mut bytes).map(|_| bytes);
        let _ = tx.send(result);
    });
    rx
}

/// The bytes `drain` read from `what`'s `stream`, waiting until `deadline`.
fn collect(
    rx: &mpsc::Receiver<io::Result<Vec<u8>>>,
    deadline: Instant,
    what: &str,
    stream: &str,
) -> Result<Vec<u8>, String> {
    match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) => Err(format!("reading {what}'s {stream}: {e}")),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(format!(
            "{what} exited but its {stream} stayed open (a process it started still holds it)"
        )),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err(format!("the thread reading {what}'s {stream} died"))
        }
    }
}

/// Runs `cmd` with no standard input, reading its output meanwhile.
/// `Err` when it cannot start, its output cannot be read, or it runs
/// longer than `limit` (it is then killed).
fn run(cmd: Command, what: &str, limit: Duration) -> Result<Run, String> {
    run_with_input(cmd, what, limit, None)
}

/// As [`run`], writing `input` (when given) to its standard input and
/// then closing it; without `input` its standard input is empty.
fn run_with_input(
    mut cmd: Command,
    what: &str,
    limit: Duration,
    input: Option<Arc<[u8]>>,
) -> Result<Run, String> {
    let stdin = if input.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    };
    let mut child = cmd
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {what}: {e}"))?;
    if let (Some(input), Some(mut pipe)) = (input, child.stdin.take()) {
        // A program that stops reading early closes the pipe: that write
        // error is its business, not the harness's.
        std::thread::spawn(move || {
            let _ = pipe.write_all(&input);
        });
    }
    let out = drain(child.stdout.take().expect("piped stdout"));
    let err = drain(child.stderr.take().expect("piped stderr"));
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{what} did not finish within {limit:?} (killed)"));
            }
            Err(e) => {
                let _ = child.kill();
                return Err(format!("waiting for {what}: {e}"));
            }
        }
    };
    // The pipes close when the program exits; grace for the reads, and for
    // a program's own short-lived children that still hold them (a port's
    // `sleep 2`): generous, as the reading threads may wait for a core.
    let deadline = deadline.max(Instant::now()) + Duration::from_secs(30);
    Ok(Run {
        code: status.code(),
        status: status.to_string(),
        stdout: collect(&out, deadline, what, "stdout")?,
        stderr: collect(&err, deadline, what, "stderr")?,
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

/// The last lines of `what`'s standard error, as a paragraph to append to a
/// failure (empty when it wrote nothing there).
fn stderr_tail(what: &str, run: &Run) -> String {
    let stderr = String::from_utf8_lossy(&run.stderr);
    if stderr.trim().is_empty() {
        return String::new();
    }
    let lines: Vec<&str> = stderr.lines().collect();
    let tail = &lines[lines.len().saturating_sub(STDERR_TAIL)..];
    format!("\n{what}'s stderr ends:\n{}", tail.join("\n"))
}

/// How one program's trial came out.
#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    /// Both runs completed, with the same output and exit code.
    Same,
    /// Both runs completed, and beamr's output or exit code differs from
    /// erl's (the description says how): the bug `KNOWN_FAILURES` may list.
    Differs(String),
    /// No comparison was possible: the program was not built, a runtime did
    /// not start, was killed by a signal or timed out, or erl printed
    /// nothing. Always a failure, listed in `KNOWN_FAILURES` or not.
    Broken(String),
}

/// Whether erl's standard output says that its boot failed because
/// `name:main/0` is undefined (`-s NAME main` then prints `init terminating
/// in do_boot` with the `undef`): the program never ran.
fn main_undefined(name: &str, erl_stdout: &[u8]) -> bool {
    let text = String::from_utf8_lossy(erl_stdout);
    text.contains("init terminating in do_boot")
        && text.contains(&format!("{{undef,[{{{name},main,[],"))
}

/// Compares erl's run (`expected`) with beamr's (`actual`) of program
/// `name`. Only two runs that both exited, with erl having run the program
/// and printed something, can be [`Verdict::Same`].
fn compare(name: &str, expected: &Run, actual: &Run) -> Verdict {
    let Some(erl_code) = expected.code else {
        return Verdict::Broken(format!(
            "erl did not exit: a signal ended it ({}){}",
            expected.status,
            stderr_tail("erl", expected)
        ));
    };
    let Some(beamr_code) = actual.code else {
        return Verdict::Broken(format!(
            "beamr did not exit: a signal ended it ({}){}",
            actual.status,
            stderr_tail("beamr", actual)
        ));
    };
    if expected.stdout.is_empty() {
        return Verdict::Broken(format!(
            "erl printed nothing on stdout ({}), so the comparison would test nothing: \
             does the program export main/0 and print what it computes?{}",
            expected.status,
            stderr_tail("erl", expected)
        ));
    }
    if main_undefined(name, &expected.stdout) {
        return Verdict::Broken(format!(
            "{name}:main/0 is undefined on erl (its boot failed with undef), \
             so the comparison would test nothing"
        ));
    }
    let mut problems = Vec::new();
    if erl_code != beamr_code {
        problems.push(format!("exit code: erl {erl_code}, beamr {beamr_code}"));
    }
    let (erl_out, beamr_out) = (mask_reports(&expected.stdout), mask_reports(&actual.stdout));
    if let Some(diff) = difference(&erl_out, &beamr_out) {
        problems.push(diff);
    }
    if problems.is_empty() {
        return Verdict::Same;
    }
    Verdict::Differs(problems.join("\n") + &stderr_tail("beamr", actual))
}

/// Runs program `name` from `beams` on both runtimes, in `scratch`.
/// `helpers` are the shared modules; `complaints` is what erlc said when
/// compiling the programs and them.
fn check(
    otp: &Otp,
    name: &str,
    helpers: &[String],
    beams: &Path,
    scratch: &Path,
    complaints: &str,
) -> Verdict {
    let unbuilt = std::iter::once(name)
        .chain(helpers.iter().map(String::as_str))
        .find(|module| !beams.join(format!("{module}.beam")).is_file());
    if let Some(module) = unbuilt {
        return Verdict::Broken(format!(
            "{module}.beam was not built; erlc said:\n{complaints}"
        ));
    }
    let src = workspace_root().join(format!("tests/diff/{name}.erl"));
    let settings = match fs::read_to_string(&src) {
        Ok(text) => settings(&text),
        Err(e) => return Verdict::Broken(format!("cannot read {}: {e}", src.display())),
    };
    let input = match stdin_of(name) {
        Ok(input) => input,
        Err(e) => return Verdict::Broken(e),
    };
    let mut erl = otp.command("erl", &otp.inside(scratch));
    erl.envs(settings.env.iter().map(|(k, v)| (k, v)))
        .env("ERL_CRASH_DUMP_SECONDS", "0")
        .arg("-noshell")
        .arg("-pa")
        .arg(otp.inside(beams))
        .args(["-s", name, "main", "-s", "init", "stop"]);
    if !settings.args.is_empty() {
        erl.arg("-extra").args(&settings.args);
    }
    let expected = match run_with_input(erl, "erl", TIME_LIMIT, input.clone()) {
        Ok(run) => run,
        Err(e) => return Verdict::Broken(e),
    };
    let mut beamr = Command::new(env!("CARGO_BIN_EXE_beamr"));
    beamr
        .current_dir(scratch)
        .envs(settings.env.iter().map(|(k, v)| (k, v)))
        .env("ERL_CRASH_DUMP_SECONDS", "0")
        .args(["run", "-e", name])
        .arg(beams);
    if !settings.args.is_empty() {
        beamr.arg("--").args(&settings.args);
    }
    if let Otp::Chroot { root, .. } = otp {
        beamr.env("BEAMR_OTP_ROOT", root.join("usr/lib/erlang"));
    }
    let actual = match run_with_input(beamr, "beamr", TIME_LIMIT, input) {
        Ok(run) => run,
        Err(e) => return Verdict::Broken(e),
    };
    compare(name, &expected, &actual)
}

/// The standard input of program `name`: the bytes of
/// `tests/diff/NAME.stdin`, or `None` when there is no such file (the
/// program then reads an empty input). An error when it cannot be read.
fn stdin_of(name: &str) -> Result<Option<Arc<[u8]>>, String> {
    let path = workspace_root().join(format!("tests/diff/{name}.stdin"));
    match fs::read(&path) {
        Ok(bytes) => Ok(Some(bytes.into())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// The trial's result for program `name`, given its verdict and the reason
/// `KNOWN_FAILURES` gives for it, if it lists it.
fn outcome(name: &str, verdict: Verdict, known: Option<&str>) -> Result<Completion, Failed> {
    match (verdict, known) {
        (Verdict::Same, None) => Ok(Completion::Completed),
        (Verdict::Same, Some(_)) => Err(format!(
            "{name} is listed in tests/diff/KNOWN_FAILURES but now passes: remove it from the list"
        )
        .into()),
        (Verdict::Differs(why), None) => Err(why.into()),
        (Verdict::Differs(_), Some(reason)) => Ok(Completion::ignored_with(reason)),
        (Verdict::Broken(why), None) => Err(why.into()),
        (Verdict::Broken(why), Some(_)) => Err(format!(
            "{why}\n(listed in KNOWN_FAILURES, but only a completed run that differs is ignored)"
        )
        .into()),
    }
}

/// Fails with `what` unless `ok`.
fn ensure(ok: bool, what: impl FnOnce() -> String) -> Result<(), Failed> {
    if ok {
        Ok(())
    } else {
        Err(what().into())
    }
}

/// A run that exited with `code`, printing `stdout`.
fn exited(code: i32, stdout: &str) -> Run {
    Run {
        code: Some(code),
        status: format!("exit status: {code}"),
        stdout: stdout.as_bytes().to_vec(),
        stderr: Vec::new(),
    }
}

/// A run that signal 9 ended, printing `stdout`.
fn killed(stdout: &str) -> Run {
    Run {
        code: None,
        status: "signal: 9 (SIGKILL)".to_owned(),
        stdout: stdout.as_bytes().to_vec(),
        stderr: Vec::new(),
    }
}

/// Whether `verdict` is [`Verdict::Broken`] with a reason containing `text`.
fn broken_with(verdict: &Verdict, text: &str) -> bool {
    matches!(verdict, Verdict::Broken(why) if why.contains(text))
}

/// A trial result in words, for the harness's own failure messages.
fn describe(result: &Result<Completion, Failed>) -> String {
    match result {
        Ok(Completion::Completed) => "passed".to_owned(),
        Ok(Completion::Ignored { reason }) => format!("ignored ({reason:?})"),
        Err(failed) => format!("failed ({:?})", failed.message()),
    }
}

/// The harness's own tests (named `harness::...`): each failure mode that
/// must fail a trial or the whole suite does.
fn harness_trials(tmp: &Path) -> Vec<Trial> {
    let tmp = tmp.join("harness");
    let dir = |name: &str| {
        let dir = tmp.join(name);
        let _ = fs::remove_dir_all(&dir);
        dir
    };
    let (missing, empty, known_dir) = (dir("missing"), dir("empty"), dir("known_dir"));
    let shared = dir("shared");
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut trials = vec![
        Trial::test(
            "harness::programs_missing_directory_is_an_error",
            move || {
                let err = programs(&missing).err().unwrap_or_default();
                let named = err.contains(&missing.display().to_string());
                ensure(named && err.starts_with("cannot read"), || {
                    format!("programs() on a missing directory: {err:?}, not an error naming it")
                })
            },
        ),
        Trial::test("harness::programs_none_is_an_error", move || {
            fs::create_dir_all(&empty).map_err(|e| e.to_string())?;
            fs::write(empty.join("KNOWN_FAILURES"), "").map_err(|e| e.to_string())?;
            fs::write(empty.join("notes.txt"), "").map_err(|e| e.to_string())?;
            let err = programs(&empty).err().unwrap_or_default();
            ensure(err.contains(&empty.display().to_string()), || {
                format!(
                    "programs() on a directory without .erl files: {err:?}, not an error naming it"
                )
            })?;
            fs::write(empty.join("b.erl"), "").map_err(|e| e.to_string())?;
            fs::write(empty.join("a.erl"), "").map_err(|e| e.to_string())?;
            let names = programs(&empty)?;
            ensure(names == ["a", "b"], || {
                format!("programs() found {names:?}")
            })
        }),
        Trial::test("harness::shared_modules_are_not_programs", move || {
            fs::create_dir_all(shared.join("lib")).map_err(|e| e.to_string())?;
            let none = helpers(&shared, &[])?;
            ensure(none.is_empty(), || {
                format!("helpers() on an empty lib/: {none:?}")
            })?;
            fs::write(shared.join("a.erl"), "").map_err(|e| e.to_string())?;
            fs::write(shared.join("lib/h.erl"), "").map_err(|e| e.to_string())?;
            fs::write(shared.join("lib/notes.txt"), "").map_err(|e| e.to_string())?;
            let names = programs(&shared)?;
            let found = helpers(&shared, &names)?;
            ensure(names == ["a"] && found == ["h"], || {
                format!("programs() found {names:?}, helpers() {found:?}")
            })?;
            fs::write(shared.join("lib/a.erl"), "").map_err(|e| e.to_string())?;
            let clash = helpers(&shared, &names).err().unwrap_or_default();
            ensure(clash.contains("named like the program a.erl"), || {
                format!("helpers() with lib/a.erl beside a.erl: {clash:?}")
            })
        }),
        Trial::test(
            "harness::known_failures_unreadable_is_an_error",
            move || {
                fs::create_dir_all(known_dir.join("KNOWN_FAILURES")).map_err(|e| e.to_string())?;
                let result = known_failures(&known_dir);
                ensure(
                    result.as_ref().is_err_and(|e| e.contains("KNOWN_FAILURES")),
                    || format!("known_failures() with KNOWN_FAILURES a directory: {result:?}"),
                )?;
                let none = known_failures(&known_dir.join("nowhere"));
                ensure(none.as_ref().is_ok_and(BTreeMap::is_empty), || {
                    format!("known_failures() without the file: {none:?}")
                })
            },
        ),
        Trial::test("harness::signal_killed_runs_never_compare_equal", || {
            let both = compare("p", &killed("x\n"), &killed("x\n"));
            ensure(broken_with(&both, "erl did not exit"), || {
                format!("two killed runs: {both:?}")
            })?;
            let beamr = compare("p", &exited(0, "x\n"), &killed("x\n"));
            ensure(broken_with(&beamr, "beamr did not exit"), || {
                format!("beamr killed: {beamr:?}")
            })?;
            let erl = compare("p", &killed("x\n"), &exited(0, "x\n"));
            ensure(broken_with(&erl, "erl did not exit"), || {
                format!("erl killed: {erl:?}")
            })
        }),
        Trial::test("harness::exit_codes_and_output_are_compared", || {
            let same = compare("p", &exited(1, "x\n"), &exited(1, "x\n"));
            ensure(same == Verdict::Same, || {
                format!("identical runs: {same:?}")
            })?;
            let code = compare("p", &exited(0, "x\n"), &exited(1, "x\n"));
            ensure(
                matches!(&code, Verdict::Differs(why) if why.contains("exit code: erl 0, beamr 1")),
                || format!("exit codes 0 and 1: {code:?}"),
            )?;
            let out = compare("p", &exited(0, "x\n"), &exited(0, "y\n"));
            ensure(matches!(out, Verdict::Differs(_)), || {
                format!("outputs x and y: {out:?}")
            })
        }),
        Trial::test("harness::reports_are_masked", || {
            let erl = "=ERROR REPORT==== 24-Nov-2026::02:12:15.076909 ===\n\
                       Error in process <0.79.0> with exit value:\n{boom,[]}\n\n\
                       <0.79.0> heap_size: 1\n";
            let beamr = "=ERROR REPORT==== 1-Jan-2027::00:00:00.000001 ===\n\
                         Error in process <0.103.0> with exit value:\n{boom,[]}\n\n\
                         <0.79.0> heap_size: 1\n";
            let same = compare("p", &exited(0, erl), &exited(0, beamr));
            ensure(same == Verdict::Same, || {
                format!("reports differing in time and pid: {same:?}")
            })?;
            let crasher = |heap: &str, reds: &str| {
                format!(
                    "=CRASH REPORT==== 1 ===\n  crasher:\n    heap_size: {heap}\n    \
                     reductions: {reds}\n    messages: [{reds}]\n"
                )
            };
            let counts = compare(
                "p",
                &exited(0, &crasher("233", "5")),
                &exited(0, &crasher("376", "5")),
            );
            ensure(counts == Verdict::Same, || {
                format!("crash reports differing in heap size: {counts:?}")
            })?;
            let other = compare(
                "p",
                &exited(0, &crasher("1", "5")),
                &exited(0, &crasher("1", "6")),
            );
            ensure(matches!(other, Verdict::Differs(_)), || {
                format!("crash reports differing in a message: {other:?}")
            })?;
            let outside = beamr.replace("\n<0.79.0> heap", "\n<0.80.0> heap");
            let after = compare("p", &exited(0, erl), &exited(0, &outside));
            ensure(matches!(after, Verdict::Differs(_)), || {
                format!("a pid after the report's end: {after:?}")
            })
        }),
        Trial::test("harness::undefined_main_is_broken", || {
            let boot = "{\"init terminating in do_boot\",{undef,[{p,main,[],[]},{init,start_em,1,[]}]}}\r\n";
            let verdict = compare("p", &exited(1, boot), &exited(1, boot));
            ensure(broken_with(&verdict, "p:main/0 is undefined"), || {
                format!("two runs without p:main/0: {verdict:?}")
            })?;
            let other = boot.replace("{p,main,", "{q,main,");
            let verdict = compare("p", &exited(1, &other), &exited(1, &other));
            ensure(verdict == Verdict::Same, || {
                format!("p failing with another module's undef: {verdict:?}")
            })
        }),
        Trial::test("harness::empty_erl_output_is_broken", || {
            let verdict = compare("p", &exited(1, ""), &exited(1, ""));
            ensure(broken_with(&verdict, "erl printed nothing"), || {
                format!("two runs printing nothing: {verdict:?}")
            })
        }),
        Trial::test("harness::known_failures_ignore_only_differences", || {
            let known = Some("a reason");
            let differs = outcome("p", Verdict::Differs("d".into()), known);
            ensure(matches!(differs, Ok(Completion::Ignored { .. })), || {
                format!("a listed program that differs: {}", describe(&differs))
            })?;
            let broken = outcome("p", Verdict::Broken("b".into()), known);
            ensure(broken.is_err(), || {
                format!("a listed program that broke: {}", describe(&broken))
            })?;
            let same = outcome("p", Verdict::Same, known);
            ensure(same.is_err(), || {
                format!("a listed program that passes: {}", describe(&same))
            })?;
            let unlisted = outcome("p", Verdict::Differs("d".into()), None);
            ensure(unlisted.is_err(), || {
                format!("an unlisted program that differs: {}", describe(&unlisted))
            })
        }),
        Trial::test("harness::settings_are_read", || {
            let text = "%% diff-env: TZ=EST5EDT,M3.2.0\n%% diff-args: a b\n%% diff-args: c\n\
                        %% diff-env: X=1=2\n%% diff-requires-otp: 29\n-module(p).\n";
            let found = settings(text);
            let want = Settings {
                env: vec![
                    ("TZ".into(), "EST5EDT,M3.2.0".into()),
                    ("X".into(), "1=2".into()),
                ],
                args: vec!["a".into(), "b".into(), "c".into()],
                requires_otp: Some(29),
            };
            ensure(found == want, || format!("settings: {found:?}"))
        }),
        Trial::test("harness::stdin_is_fed", || {
            let input: Arc<[u8]> = Arc::from(&b"one\ntwo"[..]);
            let run = run_with_input(
                Command::new("cat"),
                "cat",
                Duration::from_secs(30),
                Some(input),
            )?;
            ensure(run.stdout == b"one\ntwo", || {
                format!("cat given one\\ntwo printed {:?}", run.stdout)
            })?;
            let empty = run_with_input(Command::new("cat"), "cat", Duration::from_secs(30), None)?;
            ensure(empty.stdout.is_empty(), || {
                format!("cat without input printed {:?}", empty.stdout)
            })
        }),
        Trial::test("harness::run_times_out", || {
            let mut cmd = Command::new("sleep");
            cmd.arg("10");
            let result = run(cmd, "sleep", Duration::from_millis(200));
            ensure(
                result.as_ref().is_err_and(|e| e.contains("did not finish")),
                || {
                    format!(
                        "sleep 10 under a 200 ms limit: {:?}",
                        result.as_ref().map(|r| &r.status)
                    )
                },
            )
        }),
    ];
    #[cfg(unix)]
    trials.push(Trial::test("harness::run_reports_a_signal", || {
        let sh = || {
            let mut cmd = Command::new("sh");
            cmd.args(["-c", "echo x; kill -KILL $$"]);
            run(cmd, "sh", Duration::from_secs(30))
        };
        let (a, b) = (sh()?, sh()?);
        ensure(a.code.is_none() && a.stdout == b"x\n", || {
            format!("sh killing itself: {} printing {:?}", a.status, a.stdout)
        })?;
        let verdict = compare("p", &a, &b);
        ensure(broken_with(&verdict, "signal"), || {
            format!("two signal-killed runs: {verdict:?}")
        })
    }));
    trials
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
    let (otp, names, too_new, helpers, known) = match Otp::from_env().and_then(|otp| {
        let all = programs(&sources)?;
        let helpers = helpers(&sources, &all)?;
        let mut known = known_failures(&sources)?;
        if let Some(file) = otp.known_failures_file() {
            known.extend(known_failures_in(&sources, &file)?);
        }
        let release = otp.release()?;
        let (mut names, mut too_new) = (Vec::new(), Vec::new());
        for name in all {
            let src = sources.join(format!("{name}.erl"));
            let text = fs::read_to_string(&src)
                .map_err(|e| format!("cannot read {}: {e}", src.display()))?;
            match settings(&text).requires_otp {
                Some(needed) if needed > release => too_new.push((name, needed, release)),
                _ => names.push(name),
            }
        }
        Ok((otp, names, too_new, helpers, known))
    }) {
        Ok(found) => found,
        Err(e) => {
            eprintln!("error: the differential suite cannot run: {e}");
            std::process::exit(1);
        }
    };
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("diff");
    let work = match &otp {
        Otp::Host => tmp.clone(),
        Otp::Chroot {
            root: otp_root,
            release,
        } => {
            eprintln!(
                "differential suite against OTP {release} in {} (erl and erlc through chroot)",
                otp_root.display()
            );
            otp_root.join(in_root(&root))
        }
    };
    let beams = work.join("beam");
    let scratch = work.join("run");
    fs::create_dir_all(&scratch).expect("creating the scratch directory");
    let files: Vec<String> = (names.iter().map(|n| format!("tests/diff/{n}.erl")))
        .chain(helpers.iter().map(|h| format!("tests/diff/lib/{h}.erl")))
        .collect();
    let complaints: Arc<str> = compile(&otp, &root, &files, &beams).into();
    let helpers: Arc<[String]> = helpers.into();
    if !complaints.is_empty() {
        eprintln!("{complaints}");
    }
    let mut trials = harness_trials(&tmp);
    trials.extend(names.iter().map(|name| {
        let (name, beams, scratch) = (name.clone(), beams.clone(), scratch.clone());
        let (reason, complaints) = (known.get(&name).cloned(), complaints.clone());
        let (otp, helpers) = (otp.clone(), helpers.clone());
        Trial::ignorable_test(name.clone(), move || {
            let verdict = check(&otp, &name, &helpers, &beams, &scratch, &complaints);
            outcome(&name, verdict, reason.as_deref())
        })
    }));
    let skipped: Vec<String> = too_new.iter().map(|(name, _, _)| name.clone()).collect();
    trials.extend(too_new.into_iter().map(|(name, needed, release)| {
        Trial::ignorable_test(name, move || {
            Ok(Completion::ignored_with(format!(
                "skipped: needs OTP {needed} (diff-requires-otp), this is OTP {release}"
            )))
        })
    }));
    for name in known
        .keys()
        .filter(|k| !names.contains(k) && !skipped.contains(k))
    {
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
