//! xtask: project automation, run as `cargo xtask <subcommand>`.
//!
//! Std only, so that building it costs nothing next to the workspace.
//! `main` parses the command line and dispatches; each subcommand lives in its
//! own module:
//!
//! - `test-all` ([`test_all`]): the one test command (Erlang check, fixtures,
//!   fmt, clippy, tests, the differential suite against OTP 27 and 29 in
//!   roots of their own, [`otp_roots`]). `.ci/run` calls it.
//! - `mist` ([`gleam_mist`]): the Gleam step's web app on mist, served on
//!   erl 27 and on beamr, its answers compared.
//! - `fixtures` ([`fixtures`]): compile `tests/erlang/*.erl` with `erlc`.
//! - `bench` ([`bench`]): run `../shared/bench` on beamr and on the BEAM and
//!   print each workload's times and ratio, tracing's cost on both
//!   (`--traced`), and what beamr's probes cost while off (`--probes`).
//! - `erl-atom-order` ([`erl_atom_order`]): record erl 27's and 29's boot
//!   atom order, which beamr follows for a small map's atom keys.
//! - `fuzz` ([`fuzz`]): run the cargo-fuzz targets for a time budget each.
//! - `difffuzz` ([`difffuzz`]): random programs from erlfuzz run on erl
//!   and on beamr (native code on and off), their outputs compared.
//! - `miri` ([`miri`]): beamr-core's unsafe term and heap code under Miri.
//! - `tsan` ([`tsan`]): the scheduler, flight recorder and concurrent
//!   differential programs under ThreadSanitizer.
//! - `soak` ([`soak`]): programs that push a limit for minutes (a huge
//!   mailbox, binary and recursion), on erl and on beamr, compared.
//! - `mutate` ([`mutate`]): a mutation campaign of crafted `.beam` files
//!   run through `beamr run`, counting panics, aborts, timeouts and runaway
//!   memory.
#![forbid(unsafe_code)]

mod bench;
mod difffuzz;
mod erl_atom_order;
mod erlang;
mod fixtures;
mod fuzz;
mod gleam_mist;
mod gleam_shim;
mod gleam_suites;
mod loom;
mod miri;
mod mutate;
mod nightly;
mod otp_roots;
mod process;
mod soak;
mod test_all;
mod tsan;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "\
usage: cargo xtask <subcommand>

subcommands:
  test-all   install Erlang if missing (as root, via apt-get), compile the
             Erlang fixtures, then run cargo fmt --check, cargo clippy
             -D warnings and cargo test, stopping at the first failure;
             then the differential suite against OTP 27 and 29 (Debian
             roots made with debootstrap under target/otp/, as root;
             skipped, saying why, where that is not possible); then the
             Gleam libraries' test suites and examples/process_ring on
             erl 27 and on beamr (skipped, saying why, without
             ../shared/gleam or the OTP 27 root); then every fuzz
             target for 12 s (as `fuzz --time 12`); then 100 random
             programs from erlfuzz against OTP 25 and 27 (as `difffuzz
             -n 100`; skipped, saying why, without erlfuzz)
  gleam      only the Gleam step (beamr built with cargo build --release)
  mist [--beamr PATH]
             only the Gleam step's mist app: tests/gleam/mist_app built
             with gleam build, served on erl 27 and on beamr (built with
             cargo build --release, or PATH), the same requests sent to
             both and the answers compared
  fixtures   compile tests/erlang/*.erl into target/fixtures/{beam,asm}/
  bench [-n N] [--dir DIR] [--timeout SECS] [-S N] [--traced]
        [--probes | --flight [--instructions]] [WORKLOAD...]
  bench --server [-d SECS] [-S N]
             build beamr (release), run ../shared/bench/*.erl (or DIR, or
             $BEAMR_BENCH_DIR) on erl and on beamr, check both print the same
             result, and print each workload's times and the beamr/BEAM
             ratio (median of N runs; exit status 1 on any mismatch); then
             the traced table (the workload name `traced`): ring and fib
             traced by dbg (file port, tracer process) on both runtimes and
             by beamr's ring buffer and OpenTelemetry (to a loopback OTLP
             sink), each runtime's traced/untraced side by side, with
             issue 10's goals marked met or not
             --traced: only the traced table
             --probes: only the probes table: beamr built as always and
             with --features probes-off (every probe site compiled out),
             each workload's probes-in-but-off / probes-out ratio; with
             --instructions, of instructions counted under valgrind
             (cachegrind) rather than time: slow, but free of the noise
             --flight: only the flight table: beamr with BEAMR_FLIGHT=1
             over BEAMR_FLIGHT=0 (ring, pingpong and spawn_many unless
             names are given), against issue 33's 3%; --instructions as
             for --probes
             --server: only the server table: the gleam step's mist app
             on erl 27 and on beamr, each loaded by wrk (needs wrk) for
             SECS seconds (default 10) after a warm-up, at /hello and at
             the CPU-bound /work with 50 and 500 connections: requests
             per second, p99 latency and errors
  erl-atom-order
             record the atoms erl 27 and 29 have at boot, in atom-index
             order, into beamr-core/data/erl_atom_order/ (OTP 26+ orders a
             small map's atom keys by it); needs the OTP roots, as for
             test-all
  fuzz [--time S] [TARGET...]
             run each cargo-fuzz target (parse_beam, etf_decode,
             binary_to_term, ring_reader, load_and_run, dist_frame,
             request_decode; or those named) for S seconds
             (default 60) from its committed seed corpus; installs the
             nightly toolchain (rustup) and cargo-fuzz (cargo install) if
             missing; fails on a crash, naming the reproducer under
             target/fuzz/artifacts/
  mutate [-n N] [--seed S] [--beamr PATH]
             mutate small erlc-compiled modules at random (bytes flipped,
             inserted or cut in every chunk, bytes of the Code chunk
             flipped), run each mutant through beamr run (debug build)
             under a time and memory limit, and count panics, aborts,
             timeouts and runaway memory (N defaults to 2000, S to 1);
             the mutants that were not fine are kept in target/mutate/;
             exit status 1 on any panic or abort; --beamr PATH runs that
             beamr instead (to compare another build)
  difffuzz [-n N] [--seed S] [--otp R[=ROOT]]... [--reduce]
           [--beamr PATH] [--erlfuzz PATH]
             generate N random deterministic programs with erlfuzz
             (../shared/tools/erlfuzz/erlfuzz; seeds S.., default 100
             from 1), compile them with erlc of each release (25, the
             host's, and 27, from its Debian root under target/otp/ or
             ROOT), run their wrapper0/0 on erl, on beamr and on beamr
             with BEAMR_NATIVE=off, and compare the outputs (funs,
             references, ports and pids masked); divergences are kept in
             target/difffuzz/divergent/ (and reduced with erlfuzz reduce
             with --reduce); exit status 1 on any divergence
  loom [--preemptions N]
             the scheduling protocols' loom models (the process state
             word and inbox, the schedulers' sleep and wake-up) through
             every interleaving with at most N preemptions (default 3),
             built with --cfg loom in target/loom/
  miri       beamr-core's heap:: and term:: tests, and its heap_gc and
             etf_proptest tests (a few cases each), under Miri (nightly
             with the miri and rust-src components), in target/miri/;
             fails at the first undefined behaviour
  soak [NAME...]
             the programs in tests/soak/ (10 million messages in one
             mailbox, a 4 GiB binary, a recursion 100 million deep; or
             those named) on erl and on beamr (release build), their
             outputs and exit statuses compared; minutes and gigabytes
             each, so not in test-all
  soak --mist [--minutes M | --seconds S] [--rate R]
             the gleam step's mist app on beamr (release build) under R
             requests/s (default 2000) over 50 keep-alive connections for
             M minutes (default 10): every answer must be the one its
             request first got, and resident memory may grow at most 10%
             after the first tenth of the run
  tsan       beamr-sched's scheduler stress tests, the flight recorder's
             concurrent writers, and the differential programs proc_*,
             ets_*, timer_*, tcp_* and code_* against erl, built with
             ThreadSanitizer (nightly with rust-src) in target/tsan/;
             fails on any failed test or data race report (kept in
             target/tsan/reports/)
  help       print this message";

/// A parsed command line.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    TestAll,
    Gleam,
    Mist(Option<PathBuf>),
    Fixtures,
    ErlAtomOrder,
    Bench(bench::Options),
    Fuzz(fuzz::Options),
    Mutate(mutate::Options),
    Difffuzz(difffuzz::Options),
    /// The reducer's check of one program (not in the usage: scripts
    /// that `difffuzz` writes run it).
    DifffuzzCheck(Vec<OsString>),
    Loom(u32),
    Miri,
    Tsan,
    Soak(soak::Soak),
    Help,
}

/// A failure to report to the user; its text is printed as is.
#[derive(Debug)]
pub struct Error(String);

impl Error {
    pub fn new(msg: impl Into<String>) -> Self {
        Error(msg.into())
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub type Result<T> = std::result::Result<T, Error>;

fn parse(args: &[OsString]) -> Result<Command> {
    let Some((sub, rest)) = args.split_first() else {
        return Err(Error::new("no subcommand given"));
    };
    let Some(sub) = sub.to_str() else {
        return Err(Error::new(format!("unknown subcommand {sub:?}")));
    };
    let command = match sub {
        "test-all" => Command::TestAll,
        "gleam" => Command::Gleam,
        "fixtures" => Command::Fixtures,
        "erl-atom-order" => Command::ErlAtomOrder,
        "miri" => Command::Miri,
        "tsan" => Command::Tsan,
        "soak" => return soak::parse(rest).map(Command::Soak),
        "bench" => return bench::parse(rest).map(Command::Bench),
        "mist" => {
            return match rest {
                [] => Ok(Command::Mist(None)),
                [flag, path] if flag == "--beamr" => Ok(Command::Mist(Some(PathBuf::from(path)))),
                _ => Err(Error::new("usage: mist [--beamr PATH]")),
            }
        }
        "fuzz" => return fuzz::parse(rest).map(Command::Fuzz),
        "mutate" => return mutate::parse(rest).map(Command::Mutate),
        "difffuzz" => return difffuzz::parse(rest).map(Command::Difffuzz),
        "difffuzz-check" => return Ok(Command::DifffuzzCheck(rest.to_vec())),
        "loom" => return loom::parse(rest).map(Command::Loom),
        "help" | "-h" | "--help" => return Ok(Command::Help),
        other => return Err(Error::new(format!("unknown subcommand `{other}`"))),
    };
    if let Some(extra) = rest.first() {
        return Err(Error::new(format!(
            "`{sub}` takes no arguments (got {:?})",
            extra.to_string_lossy()
        )));
    }
    Ok(command)
}

/// The workspace root: the parent of this crate's directory.
fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives one level below the workspace root")
        .to_path_buf()
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let command = match parse(&args) {
        Ok(command) => command,
        Err(err) => {
            eprintln!("xtask: error: {err}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let root = project_root();
    let result = match command {
        Command::Help => {
            println!("{USAGE}");
            Ok(())
        }
        Command::TestAll => test_all::run(&root),
        Command::Gleam => match gleam_suites::run(&root) {
            Ok(result) => result,
            Err(otp_roots::Skip(why)) => Err(Error::new(format!("cannot run: {why}"))),
        },
        Command::Mist(beamr) => match gleam_suites::mist(&root, beamr.as_deref()) {
            Ok(result) => result,
            Err(otp_roots::Skip(why)) => Err(Error::new(format!("cannot run: {why}"))),
        },
        Command::Fixtures => erlang::ensure()
            .and_then(|()| fixtures::build(&root))
            .map(|built| built.print_env_hint()),
        Command::ErlAtomOrder => erl_atom_order::run(&root),
        Command::Bench(options) => erlang::ensure().and_then(|()| bench::run(&root, &options)),
        Command::Fuzz(options) => fuzz::run(&root, &options),
        Command::Mutate(options) => erlang::ensure().and_then(|()| mutate::run(&root, &options)),
        Command::Difffuzz(options) => {
            erlang::ensure().and_then(|()| difffuzz::run(&root, &options))
        }
        Command::DifffuzzCheck(args) => difffuzz::check(&root, &args),
        Command::Loom(preemptions) => loom::run(&root, preemptions),
        Command::Miri => miri::run(&root),
        Command::Tsan => erlang::ensure().and_then(|()| tsan::run(&root)),
        Command::Soak(soak::Soak::Programs(only)) => {
            erlang::ensure().and_then(|()| soak::run(&root, &only))
        }
        Command::Soak(soak::Soak::Mist(plan)) => soak::mist(&root, plan),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("xtask: error: {err}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    #[test]
    fn parses_known_subcommands() {
        assert_eq!(parse(&args(&["test-all"])).unwrap(), Command::TestAll);
        assert_eq!(parse(&args(&["fixtures"])).unwrap(), Command::Fixtures);
        assert_eq!(
            parse(&args(&["bench"])).unwrap(),
            Command::Bench(bench::Options::default())
        );
        assert_eq!(parse(&args(&["--help"])).unwrap(), Command::Help);
        assert_eq!(parse(&args(&["mist"])).unwrap(), Command::Mist(None));
        assert_eq!(
            parse(&args(&["mist", "--beamr", "b"])).unwrap(),
            Command::Mist(Some(PathBuf::from("b")))
        );
        assert!(parse(&args(&["mist", "b"])).is_err());
        assert_eq!(
            parse(&args(&["fuzz", "--time", "3"])).unwrap(),
            Command::Fuzz(fuzz::Options {
                seconds: 3,
                only: Vec::new()
            })
        );
    }

    #[test]
    fn rejects_unknown_missing_and_extra() {
        let err = parse(&args(&["bogus"])).unwrap_err();
        assert_eq!(err.to_string(), "unknown subcommand `bogus`");
        assert!(parse(&args(&[])).is_err());
        let err = parse(&args(&["test-all", "--release"])).unwrap_err();
        assert!(err.to_string().contains("takes no arguments"), "{err}");
    }

    #[test]
    fn project_root_is_the_workspace() {
        assert!(project_root().join("Cargo.toml").is_file());
        assert!(project_root().join("xtask").is_dir());
    }
}
