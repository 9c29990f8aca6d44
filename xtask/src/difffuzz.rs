//! `cargo xtask difffuzz [-n N] [--seed S] [--otp R[=ROOT]]... [--reduce]`:
//! differential fuzzing of beamr against erl (issue 34).
//!
//! erlfuzz (`../shared/tools/erlfuzz/erlfuzz`, WhatsApp's generator of
//! valid Erlang) writes N programs, seeds S to S+N-1, each deterministic
//! (`--deterministic`: no pids, references or ports in results) with a
//! `wrapper0/0` that prints what its functions return (`--wrapper
//! printing`). For each release (25, the host's, and 27, from its Debian
//! root, unless `--otp` says otherwise) the programs are compiled by that
//! release's `erlc`, in batches, and a driver ([`driver`]) runs each
//! program's `wrapper0/0` in a process of its own under a time limit, on
//! that release's `erl`, on beamr, and on beamr with `BEAMR_NATIVE=off`
//! (the interpreter alone). The outputs are compared per program, funs,
//! references, ports and pids masked; the wrapper is made to print an
//! exception's reason where erlfuzz's prints only `'EXIT'`. For OTP 25,
//! whose `io:format/2` has no `k` modifier and whose compiler has no
//! `maybe` or map comprehensions, the programs are generated without them
//! and print with `~p` (which orders map keys there as `~kp` does later).
//!
//! A program `erlc` refuses is counted and skipped, as is one that runs
//! past the limit on erl. Every other difference is a divergence, kept
//! under `target/difffuzz/divergent/otpR-fzS/` (the source, the three
//! outputs, and `check.sh`, the comparison of one file); with
//! `--reduce`, `erlfuzz reduce` shrinks it there (`minimized/fzS.erl`),
//! checking each candidate with `cargo xtask difffuzz-check` (the same
//! comparison for one file). The exit status is 1 on any divergence.

mod driver;
mod otp;

use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::otp_roots;
use crate::{process, Error, Result};
use otp::Otp;

/// A program's time limit on erl, and on beamr (a debug build, so
/// slower; a guard against a hang, never a measure of speed).
const ERL_LIMIT: Duration = Duration::from_secs(10);
const BEAMR_LIMIT: Duration = Duration::from_secs(30);

/// Programs compiled and run together.
const BATCH: usize = 25;

/// How long one reduction may take.
const REDUCE_LIMIT: Duration = Duration::from_secs(900);

/// The programs `cargo xtask test-all` runs (against OTP 25 and 27).
pub const TEST_ALL_PROGRAMS: u64 = 100;

/// The seed `cargo xtask test-all` starts from.
pub const TEST_ALL_SEED: u64 = 1;

/// `cargo xtask test-all`'s step: [`TEST_ALL_PROGRAMS`] programs from
/// [`TEST_ALL_SEED`] against the default releases; a [`otp_roots::Skip`]
/// without erlfuzz.
pub fn test_all(root: &Path) -> std::result::Result<Result<()>, otp_roots::Skip> {
    let erlfuzz = default_erlfuzz(root);
    if !erlfuzz.is_file() {
        return Err(otp_roots::Skip(format!(
            "no erlfuzz at {}",
            erlfuzz.display()
        )));
    }
    Ok(run(
        root,
        &Options {
            count: TEST_ALL_PROGRAMS,
            seed: TEST_ALL_SEED,
            ..Options::default()
        },
    ))
}

/// A release as the command line names it: its number, and the root it
/// lives in when not the host's (`None`: the workspace's `target/otp/R`,
/// made if missing, as for the differential suite).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OtpSpec {
    /// `"25"` (the host's), `"27"`, `"29"`.
    pub release: String,
    /// `--otp 27=ROOT`'s ROOT.
    pub root: Option<PathBuf>,
}

/// The command line's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Programs per release.
    pub count: u64,
    /// The first program's seed.
    pub seed: u64,
    /// The releases compared against.
    pub otps: Vec<OtpSpec>,
    /// The beamr to run, in place of a debug build of this checkout's.
    pub beamr: Option<PathBuf>,
    /// The erlfuzz to run, in place of `../shared/tools/erlfuzz/erlfuzz`.
    pub erlfuzz: Option<PathBuf>,
    /// Whether to reduce each divergence with `erlfuzz reduce`.
    pub reduce: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            count: 100,
            seed: 1,
            otps: ["25", "27"]
                .iter()
                .map(|r| OtpSpec {
                    release: r.to_string(),
                    root: None,
                })
                .collect(),
            beamr: None,
            erlfuzz: None,
            reduce: false,
        }
    }
}

/// Parses the arguments after `difffuzz`.
pub fn parse(args: &[OsString]) -> Result<Options> {
    let mut options = Options::default();
    let mut otps = Vec::new();
    let mut it = args.iter().map(|a| a.to_string_lossy().into_owned());
    while let Some(flag) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .ok_or_else(|| Error::new(format!("{flag} needs {what}")))
        };
        match flag.as_str() {
            "-n" => options.count = number(&flag, &value("a number of programs")?)?,
            "--seed" => options.seed = number(&flag, &value("a seed")?)?,
            "--otp" => otps.push(otp_spec(&value("a release (25, 27, 27=ROOT)")?)?),
            "--beamr" => options.beamr = Some(PathBuf::from(value("a path")?)),
            "--erlfuzz" => options.erlfuzz = Some(PathBuf::from(value("a path")?)),
            "--reduce" => options.reduce = true,
            other => return Err(Error::new(format!("difffuzz: unknown option `{other}`"))),
        }
    }
    if !otps.is_empty() {
        options.otps = otps;
    }
    Ok(options)
}

fn number(flag: &str, text: &str) -> Result<u64> {
    text.parse()
        .map_err(|_| Error::new(format!("{flag} {text}: not a number")))
}

fn otp_spec(text: &str) -> Result<OtpSpec> {
    let (release, root) = match text.split_once('=') {
        Some((release, root)) => (release, Some(PathBuf::from(root))),
        None => (text, None),
    };
    if release.is_empty() || !release.bytes().all(|b| b.is_ascii_digit()) {
        return Err(Error::new(format!(
            "--otp {text}: not a release number (25, 27, 27=ROOT)"
        )));
    }
    Ok(OtpSpec {
        release: release.to_string(),
        root,
    })
}

/// The release a spec names, ready to run: the host's for its own
/// release, a root otherwise. `Ok(Err(why))` when a root cannot be had
/// (that release is skipped, saying why).
fn resolve(root: &Path, spec: &OtpSpec) -> Result<std::result::Result<Otp, String>> {
    if let Some(dir) = &spec.root {
        let dir = fs::canonicalize(dir)
            .map_err(|e| Error::new(format!("--otp {}: {}: {e}", spec.release, dir.display())))?;
        return Ok(Ok(Otp::Chroot {
            release: spec.release.clone(),
            root: dir,
        }));
    }
    let host = process::output(Command::new("erl").args([
        "-noshell",
        "-eval",
        "io:put_chars(erlang:system_info(otp_release)), halt().",
    ]));
    if host.as_deref() == Some(spec.release.as_str()) {
        return Ok(Ok(Otp::Host(spec.release.clone())));
    }
    let Some((_, suite)) = otp_roots::RELEASES.iter().find(|(r, _)| *r == spec.release) else {
        return Err(Error::new(format!(
            "--otp {}: the host's erl is OTP {}, and no Debian root is known for {} (give one: --otp {}=ROOT)",
            spec.release,
            host.unwrap_or_else(|| "missing".into()),
            spec.release,
            spec.release
        )));
    };
    Ok(otp_roots::ensure(root, &spec.release, suite)
        .map(|dir| Otp::Chroot {
            release: spec.release.clone(),
            root: dir,
        })
        .map_err(|otp_roots::Skip(why)| why))
}

/// The tools a campaign runs.
struct Tools {
    beamr: PathBuf,
    erlfuzz: PathBuf,
}

/// The erlfuzz `../shared/tools/erlfuzz/erlfuzz` beside the workspace.
pub fn default_erlfuzz(root: &Path) -> PathBuf {
    root.join("../shared/tools/erlfuzz/erlfuzz")
}

fn tools(root: &Path, options: &Options) -> Result<Tools> {
    let erlfuzz = options
        .erlfuzz
        .clone()
        .unwrap_or_else(|| default_erlfuzz(root));
    if !erlfuzz.is_file() {
        return Err(Error::new(format!(
            "no erlfuzz at {} (give one with --erlfuzz PATH)",
            erlfuzz.display()
        )));
    }
    let beamr = match &options.beamr {
        Some(path) => fs::canonicalize(path).map_err(io_err(path))?,
        None => {
            process::run(
                Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
                    .current_dir(root)
                    .args(["build", "-p", "beamr-cli"]),
            )?;
            root.join("target/debug/beamr")
        }
    };
    Ok(Tools { beamr, erlfuzz })
}

/// erlfuzz's generation options for a release (also those of its
/// reduction, which must match).
fn generate_flags(otp: &Otp) -> Vec<&'static str> {
    let mut flags = vec![
        "--deterministic",
        "--wrapper",
        "printing",
        "--disable-nominal",
    ];
    if otp.is_old() {
        flags.extend(["--disable-maybe", "--disable-map-comprehensions"]);
    }
    flags
}

/// What the campaign counted, per release.
#[derive(Default, Debug)]
struct Counts {
    generated: u64,
    refused: u64,
    erl_timeouts: u64,
    same: u64,
    /// Of `same`, those whose `wrapper0/0` printed a value rather than an
    /// exception's reason, and those whose call raised another exception
    /// than `function_clause` (the rest: its arguments matched no clause).
    valued: u64,
    other_exception: u64,
    divergent: Vec<String>,
}

impl Counts {
    fn summary(&self) -> String {
        format!(
            "{} programs: {} compared the same ({} printing a value, {} another exception than function_clause), {} divergent; {} refused by erlc, {} past the limit on erl",
            self.generated,
            self.same,
            self.valued,
            self.other_exception,
            self.divergent.len(),
            self.refused,
            self.erl_timeouts
        )
    }
}

/// Runs the campaign.
pub fn run(root: &Path, options: &Options) -> Result<()> {
    let tools = tools(root, options)?;
    let mut failures = Vec::new();
    for spec in &options.otps {
        let otp = match resolve(root, spec)? {
            Ok(otp) => otp,
            Err(why) => {
                println!("difffuzz: OTP {} skipped: {why}", spec.release);
                continue;
            }
        };
        let counts = campaign(root, &tools, &otp, options)?;
        println!(
            "difffuzz OTP {} (seeds {}..{}): {}",
            otp.name(),
            options.seed,
            options.seed + options.count,
            counts.summary()
        );
        for name in &counts.divergent {
            println!("  divergent: {name}");
        }
        if !counts.divergent.is_empty() {
            failures.push(format!(
                "OTP {}: {} divergent ({})",
                otp.name(),
                counts.divergent.len(),
                counts.divergent.join(", ")
            ));
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(Error::new(format!(
            "difffuzz: {}; kept under {}",
            failures.join("; "),
            root.join("target/difffuzz/divergent").display()
        )))
    }
}

fn io_err(what: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::new(format!("{}: {e}", what.display()))
}

/// Every batch of one release.
fn campaign(root: &Path, tools: &Tools, otp: &Otp, options: &Options) -> Result<Counts> {
    let mut counts = Counts::default();
    let work = otp.work_dir(root);
    let seeds: Vec<u64> = (options.seed..options.seed.saturating_add(options.count)).collect();
    // One directory per campaign, so that two never share one.
    let dir = work.join(format!("batch-{}", std::process::id()));
    for batch in seeds.chunks(BATCH) {
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        let mut modules = Vec::new();
        for &seed in batch {
            let module = format!("fz{seed}");
            generate(&tools.erlfuzz, otp, seed, &module, &dir)?;
            modules.push(module);
        }
        counts.generated += modules.len() as u64;
        let compiled = compile(otp, &dir, &modules)?;
        counts.refused += (modules.len() - compiled.len()) as u64;
        let outputs = run_all(tools, otp, &dir, &compiled)?;
        for module in &compiled {
            let [erl, native, interp] = outputs.each(module);
            if driver::timed_out(&erl) {
                counts.erl_timeouts += 1;
                continue;
            }
            if erl == native && erl == interp {
                counts.same += 1;
                let shown = erl.trim();
                if !shown.starts_with("{'EXIT'") {
                    counts.valued += 1;
                } else if shown != "{'EXIT',function_clause}" {
                    counts.other_exception += 1;
                }
                continue;
            }
            let kept = keep(root, tools, otp, &dir, module, [&erl, &native, &interp])?;
            println!(
                "difffuzz: OTP {}: {module} diverges ({}), kept in {}",
                otp.name(),
                which_differ(&erl, &native, &interp),
                kept.display()
            );
            if options.reduce {
                reduce(tools, otp, &kept, module)?;
            }
            counts.divergent.push(format!("otp{}-{module}", otp.name()));
        }
        println!(
            "difffuzz: OTP {}: {} programs so far: {}",
            otp.name(),
            counts.generated,
            counts.summary()
        );
    }
    let _ = fs::remove_dir_all(&dir);
    Ok(counts)
}

fn which_differ(erl: &str, native: &str, interp: &str) -> &'static str {
    match (erl == native, erl == interp) {
        (false, false) => "native code and interpreter",
        (false, true) => "native code only",
        _ => "interpreter only",
    }
}

/// Writes program `module` of `seed` into `dir`.
fn generate(erlfuzz: &Path, otp: &Otp, seed: u64, module: &str, dir: &Path) -> Result<()> {
    let file = dir.join(format!("{module}.erl"));
    let out = Command::new(erlfuzz)
        .args(generate_flags(otp))
        .args(["generate", module, "--seed"])
        .arg(seed.to_string())
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .map_err(|e| Error::new(format!("could not start {}: {e}", erlfuzz.display())))?;
    if !out.status.success() {
        return Err(Error::new(format!(
            "erlfuzz failed on seed {seed} ({})",
            out.status
        )));
    }
    fs::write(&file, &out.stdout).map_err(io_err(&file))
}

/// What `wrapper0/0` prints for a function that raised: only `'EXIT'`.
const WRAPPER_EXIT: &str = "{'EXIT', _}  ->\n\t'EXIT';";

/// What it prints instead: the reason (without the stack trace, whose
/// details are the runtime's own), so that the comparison also covers
/// which error each runtime raised.
const WRAPPER_REASON: &str =
    "{'EXIT', {DifffuzzReason, DifffuzzStack}} when is_list(DifffuzzStack) ->\n\t\
                              {'EXIT', DifffuzzReason};\n\t\
                              {'EXIT', DifffuzzReason} ->\n\t{'EXIT', DifffuzzReason};";

/// Adapts a generated source before it is compiled: the wrapper shows
/// error reasons ([`WRAPPER_REASON`]), and on an old release `~kp` is
/// printed as `~p`.
fn adapt(otp: &Otp, file: &Path) -> Result<()> {
    let mut text = fs::read_to_string(file).map_err(io_err(file))?;
    text = text.replace(WRAPPER_EXIT, WRAPPER_REASON);
    if otp.is_old() {
        text = text.replace("\"~kp\"", "\"~p\"");
    }
    fs::write(file, text).map_err(io_err(file))
}

/// Compiles `modules` in `dir` with the release's compiler (one erl for
/// all); returns those it compiled.
fn compile(otp: &Otp, dir: &Path, modules: &[String]) -> Result<Vec<String>> {
    for module in modules {
        adapt(otp, &dir.join(format!("{module}.erl")))?;
    }
    // One erl compiles them all (erlc stops at the first file it
    // refuses); what was built tells which compiled.
    let files: Vec<String> = modules.iter().map(|m| format!("\"{m}\"")).collect();
    let log = dir.join("erlc.log");
    let log_file = fs::File::create(&log).map_err(io_err(&log))?;
    let mut cmd = otp.command("erl", dir);
    cmd.args(["-noshell", "-eval"])
        .arg(format!(
            "[compile:file(F, [report_errors]) || F <- [{}]], halt().",
            files.join(", ")
        ))
        .stdin(Stdio::null())
        .stdout(log_file.try_clone().map_err(io_err(&log))?)
        .stderr(log_file);
    let _ = cmd
        .status()
        .map_err(|e| Error::new(format!("could not start erl to compile: {e}")))?;
    Ok(modules
        .iter()
        .filter(|m| dir.join(format!("{m}.beam")).is_file())
        .cloned()
        .collect())
}

/// Compiles the driver of `modules` in `dir`.
fn compile_driver(otp: &Otp, dir: &Path, modules: &[String]) -> Result<()> {
    let driver = dir.join(format!("{}.erl", driver::MODULE));
    fs::write(&driver, driver::source(modules)).map_err(io_err(&driver))?;
    let mut cmd = otp.command("erlc", dir);
    cmd.arg(format!("{}.erl", driver::MODULE))
        .stdin(Stdio::null());
    match process::output(&mut cmd) {
        Some(_) => Ok(()),
        None => Err(Error::new(format!(
            "erlc refused the driver {}",
            driver.display()
        ))),
    }
}

/// The three runs' outputs, split by program.
struct Outputs([std::collections::BTreeMap<String, String>; 3]);

impl Outputs {
    /// Program `module`'s output on erl, on beamr, on beamr's interpreter
    /// (a note when a run printed nothing for it: it died first).
    fn each(&self, module: &str) -> [String; 3] {
        self.0.each_ref().map(|parts| {
            parts
                .get(module)
                .cloned()
                .unwrap_or_else(|| "==difffuzz: no output (the run ended first)==\n".into())
        })
    }
}

/// Runs the driver in `dir` on erl, then, for the programs that ended on
/// erl within the limit, on beamr and on beamr without native code.
fn run_all(tools: &Tools, otp: &Otp, dir: &Path, modules: &[String]) -> Result<Outputs> {
    let limit = |each: Duration, n: usize| each * n.max(1) as u32 + Duration::from_secs(60);
    compile_driver(otp, dir, modules)?;
    let mut erl = otp.command("erl", dir);
    erl.env(driver::TIMEOUT_VAR, ERL_LIMIT.as_millis().to_string())
        .args(["-noshell", "-pa", ".", "-s", driver::MODULE, "main"])
        .args(["-s", "init", "stop"]);
    let erl = driver::split(&run_limited(
        erl,
        dir,
        "erl",
        limit(ERL_LIMIT, modules.len()),
    )?);
    // One that ran past the limit on erl is not compared: beamr need not
    // spend its longer limit on it.
    let ended: Vec<String> = modules
        .iter()
        .filter(|m| erl.get(*m).is_some_and(|out| !driver::timed_out(out)))
        .cloned()
        .collect();
    if ended.len() != modules.len() {
        compile_driver(otp, dir, &ended)?;
    }
    let mut outs = vec![erl];
    for native in [true, false] {
        let mut beamr = beamr_command(tools, otp, dir, native);
        beamr.env(driver::TIMEOUT_VAR, BEAMR_LIMIT.as_millis().to_string());
        let name = if native { "native" } else { "interp" };
        let text = run_limited(beamr, dir, name, limit(BEAMR_LIMIT, ended.len()))?;
        outs.push(driver::split(&text));
    }
    let [a, b, c]: [_; 3] = outs
        .try_into()
        .map_err(|_| Error::new("three runs expected"))?;
    Ok(Outputs([a, b, c]))
}

fn beamr_command(tools: &Tools, otp: &Otp, dir: &Path, native: bool) -> Command {
    let mut cmd = Command::new(&tools.beamr);
    cmd.current_dir(dir)
        .env("ERL_CRASH_DUMP_SECONDS", "0")
        .args(["run", "-e", &format!("{}:main", driver::MODULE), "."]);
    if let Some(lib) = otp.beamr_otp_root() {
        cmd.env("BEAMR_OTP_ROOT", lib);
    }
    if !native {
        cmd.env("BEAMR_NATIVE", "off");
    }
    cmd
}

/// Runs `cmd` with its output in `dir/NAME.out` (stderr in `NAME.err`),
/// killed past `limit`; returns the output.
fn run_limited(mut cmd: Command, dir: &Path, name: &str, limit: Duration) -> Result<String> {
    let out_path = dir.join(format!("{name}.out"));
    let err_path = dir.join(format!("{name}.err"));
    let out = fs::File::create(&out_path).map_err(io_err(&out_path))?;
    let err = fs::File::create(&err_path).map_err(io_err(&err_path))?;
    let shown = process::display(&cmd);
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| Error::new(format!("could not start `{shown}`: {e}")))?;
    let started = Instant::now();
    while child
        .try_wait()
        .map_err(|e| Error::new(e.to_string()))?
        .is_none()
    {
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let bytes = fs::read(&out_path).map_err(io_err(&out_path))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// Keeps a divergent program under `target/difffuzz/divergent/`, with its
/// outputs and a script that reduces it; returns the directory.
fn keep(
    root: &Path,
    tools: &Tools,
    otp: &Otp,
    dir: &Path,
    module: &str,
    outputs: [&str; 3],
) -> Result<PathBuf> {
    let kept = root
        .join("target/difffuzz/divergent")
        .join(format!("otp{}-{module}", otp.name()));
    let _ = fs::remove_dir_all(&kept);
    fs::create_dir_all(&kept).map_err(io_err(&kept))?;
    let src = dir.join(format!("{module}.erl"));
    fs::copy(&src, kept.join(format!("{module}.erl"))).map_err(io_err(&src))?;
    for (name, text) in ["erl.out", "native.out", "interp.out"].iter().zip(outputs) {
        let path = kept.join(name);
        fs::write(&path, text).map_err(io_err(&path))?;
    }
    let script = kept.join("check.sh");
    fs::write(&script, check_script(tools, otp)?).map_err(io_err(&script))?;
    make_executable(&script)?;
    Ok(kept)
}

/// A script that takes a `.erl` file and fails when it diverges: what
/// `erlfuzz reduce --command` runs.
fn check_script(tools: &Tools, otp: &Otp) -> Result<String> {
    let xtask = std::env::current_exe()
        .map_err(|e| Error::new(format!("cannot find the xtask binary: {e}")))?;
    let spec = match otp {
        Otp::Host(release) => release.clone(),
        Otp::Chroot { release, root } => format!("{release}={}", root.display()),
    };
    Ok(format!(
        "#!/bin/sh\nexec '{}' difffuzz-check --otp '{spec}' --beamr '{}' \"$1\"\n",
        xtask.display(),
        tools.beamr.display()
    ))
}

#[cfg(unix)]
fn make_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).map_err(io_err(path))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> Result<()> {
    Ok(())
}

/// `erlfuzz reduce` on a kept divergence: the smallest program it finds
/// that still diverges goes to `KEPT/minimized/MODULE.erl`.
fn reduce(tools: &Tools, otp: &Otp, kept: &Path, module: &str) -> Result<()> {
    let Some(seed) = module.strip_prefix("fz") else {
        return Err(Error::new(format!("{module}: not a generated program")));
    };
    let mut cmd = Command::new(&tools.erlfuzz);
    cmd.args(generate_flags(otp))
        .args(["reduce", "--seed", seed, "--command"])
        .arg(kept.join("check.sh"))
        .arg("--tmp-directory")
        .arg(kept.join("tmp"))
        .arg("--minimized-directory")
        .arg(kept.join("minimized"))
        .arg(module);
    let _ = fs::create_dir_all(kept.join("tmp"));
    let _ = fs::create_dir_all(kept.join("minimized"));
    println!("$ {}", process::display(&cmd));
    let text = run_limited(cmd, kept, "reduce", REDUCE_LIMIT)?;
    let minimized = kept.join("minimized").join(format!("{module}.erl"));
    if minimized.is_file() {
        println!("difffuzz: reduced to {}", minimized.display());
    } else {
        println!(
            "difffuzz: erlfuzz reduce found nothing smaller; its output: {}",
            text.lines().last().unwrap_or("(none)")
        );
    }
    Ok(())
}

/// `cargo xtask difffuzz-check --otp SPEC --beamr PATH FILE.erl`: the
/// comparison of one program (the reducer's check). Fails, saying which
/// runs differ, when beamr's output differs from erl's; passes when they
/// agree, when erlc refuses the file, or when erl runs past the limit.
pub fn check(root: &Path, args: &[OsString]) -> Result<()> {
    let (file, rest) = args
        .split_last()
        .ok_or_else(|| Error::new("difffuzz-check needs a .erl file"))?;
    let options = parse(rest)?;
    let file = PathBuf::from(file);
    let module = file
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|m| m.starts_with("fz"))
        .ok_or_else(|| Error::new(format!("{}: not a generated fzN.erl", file.display())))?
        .to_string();
    let beamr = options
        .beamr
        .clone()
        .unwrap_or_else(|| root.join("target/debug/beamr"));
    let beamr = fs::canonicalize(&beamr).map_err(io_err(&beamr))?;
    let tools = Tools {
        beamr,
        erlfuzz: PathBuf::new(),
    };
    let spec = options
        .otps
        .first()
        .ok_or_else(|| Error::new("difffuzz-check needs --otp"))?;
    let otp = resolve(root, spec)?.map_err(Error::new)?;
    let dir = otp
        .work_dir(root)
        .join(format!("check-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).map_err(io_err(&dir))?;
    let result = check_in(&tools, &otp, &dir, &file, &module);
    let _ = fs::remove_dir_all(&dir);
    result
}

fn check_in(tools: &Tools, otp: &Otp, dir: &Path, file: &Path, module: &str) -> Result<()> {
    let copy = dir.join(format!("{module}.erl"));
    fs::copy(file, &copy).map_err(io_err(file))?;
    let compiled = compile(otp, dir, &[module.to_string()])?;
    if compiled.is_empty() {
        println!("erlc refused {}", file.display());
        return Ok(());
    }
    let [erl, native, interp] = run_all(tools, otp, dir, &compiled)?.each(module);
    if driver::timed_out(&erl) || (erl == native && erl == interp) {
        println!("same output");
        return Ok(());
    }
    println!(
        "INTERESTING: beamr differs from erl ({})",
        which_differ(&erl, &native, &interp)
    );
    Err(Error::new("divergent"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_count_seed_and_releases() {
        let options = parse(&args(&["-n", "30", "--seed", "7", "--otp", "27=/r"])).unwrap();
        assert_eq!(options.count, 30);
        assert_eq!(options.seed, 7);
        assert_eq!(
            options.otps,
            [OtpSpec {
                release: "27".into(),
                root: Some(PathBuf::from("/r"))
            }]
        );
        let default = parse(&[]).unwrap();
        assert_eq!(default, Options::default());
        assert_eq!(default.otps.len(), 2);
        assert!(parse(&args(&["--otp", "x"])).is_err());
        assert!(parse(&args(&["-n"])).is_err());
        assert!(parse(&args(&["--bogus"])).is_err());
    }

    #[test]
    fn old_releases_generate_without_new_syntax() {
        let old = generate_flags(&Otp::Host("25".into()));
        assert!(old.contains(&"--disable-maybe"));
        let new = generate_flags(&Otp::Chroot {
            release: "27".into(),
            root: PathBuf::from("/r"),
        });
        assert!(!new.contains(&"--disable-maybe"));
        assert!(new.contains(&"--deterministic"));
    }

    #[test]
    fn the_wrapper_prints_reasons_and_old_releases_print_with_p() {
        // As erlfuzz writes wrapper0/0's cases.
        let generated =
            "\t(io:format(\"~kp\", [(case (catch (f1())) of\n\t{'EXIT', _}  ->\n\t'EXIT';\n";
        let dir = std::env::temp_dir().join(format!("difffuzz-adapt-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let file = dir.join("fz1.erl");
        fs::write(&file, generated).unwrap();
        adapt(&Otp::Host("25".into()), &file).unwrap();
        let text = fs::read_to_string(&file).unwrap();
        let _ = fs::remove_dir_all(&dir);
        assert!(text.contains("{'EXIT', DifffuzzReason};"), "{text}");
        assert!(!text.contains("'EXIT';"), "{text}");
        assert!(text.contains("\"~p\""), "{text}");
    }

    #[test]
    fn names_the_runs_that_differ() {
        assert_eq!(which_differ("a", "b", "a"), "native code only");
        assert_eq!(which_differ("a", "a", "b"), "interpreter only");
        assert_eq!(which_differ("a", "b", "b"), "native code and interpreter");
    }
}
