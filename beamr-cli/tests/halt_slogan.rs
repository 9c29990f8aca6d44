//! `halt(Slogan)`, `halt(Slogan, [{flush, false}])` and `halt(abort)`, run
//! on `erl -noshell` and on `beamr run` with the same environment; their
//! standard output, standard error and exit status must be the same, and
//! so must the crash dump's presence, name and first lines (its format
//! line and the slogan; beamr's dump holds no more than it can truthfully
//! say, see `beamr-sched/src/bif/erlang/crash_dump.rs`). The differential suite
//! cannot show these: erl's output written before such a halt is lost or
//! not at random, and the suite needs some.
//!
//! It runs on the host's OTP and on each release root `cargo xtask
//! test-all` made under `target/otp/` (27, 29), through `chroot`, with
//! beamr on that release's library, as the differential suite does.

mod release_roots;

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};

use release_roots::{otp_root_env, releases, shell, work_dir};

const PROGRAM: &str = r#"-module(halting).
-export([slogan/0, noflush/0, abort/0]).
slogan() -> halt("my slogan").
noflush() -> halt("another slogan", [{flush, false}]).
abort() -> halt(abort).
"#;

/// What one run left.
#[derive(Debug, PartialEq)]
struct Outcome {
    stdout: String,
    stderr: String,
    /// The exit status, or 1000 plus the signal that ended the run.
    status: i32,
    /// The dump's first and third lines (format, slogan), if written.
    dump: Option<(String, String)>,
}

/// Runs `command` with environment `env` in `inner` (`dir` from here),
/// inside `root` when given, without core files; `dump` is the dump's
/// name relative to the directory.
fn run(root: Option<&Path>, dir: &Path, inner: &Path, env: &str, command: &str) -> Outcome {
    for stale in ["erl_crash.dump", "elsewhere.dump"] {
        let _ = std::fs::remove_file(dir.join(stale));
    }
    let line = format!(
        "ulimit -c 0; cd {} && exec env HOME=/tmp {env} timeout -s KILL 60 {command}",
        inner.display()
    );
    let out = shell(root, &line).output().expect("sh runs");
    let status = out
        .status
        .code()
        .or(out.status.signal().map(|s| 1000 + s))
        .unwrap();
    let dump = ["erl_crash.dump", "elsewhere.dump"]
        .iter()
        .find_map(|name| {
            let text = std::fs::read_to_string(dir.join(name)).ok()?;
            let lines: Vec<&str> = text.lines().collect();
            Some((
                format!("{name}: {}", lines.first()?),
                lines.get(2)?.to_string(),
            ))
        });
    Outcome {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        status,
        dump,
    }
}

#[test]
fn halting_with_a_slogan_or_abort_does_what_erl_does() {
    let cases = [
        ("slogan", ""),
        ("slogan", "ERL_CRASH_DUMP_SECONDS=0"),
        ("noflush", "ERL_CRASH_DUMP=elsewhere.dump"),
        ("abort", ""),
    ];
    for root in releases() {
        let root = root.as_deref();
        let (dir, inner) = work_dir(root, "beamr-halt");
        std::fs::write(dir.join("halting.erl"), PROGRAM).unwrap();
        let compiled = run(root, &dir, &inner, "", "erlc halting.erl");
        assert_eq!(compiled.status, 0, "erlc: {compiled:?}");
        let beamr = PathBuf::from(env!("CARGO_BIN_EXE_beamr"));
        for (function, env) in cases {
            let erl = run(
                root,
                &dir,
                &inner,
                env,
                &format!("erl -noshell -s halting {function}"),
            );
            let otp_env = otp_root_env(root);
            let ours = run(
                None,
                &dir,
                &dir,
                &format!("{env} {otp_env}"),
                &format!("{} run -e halting:{function} .", beamr.display()),
            );
            assert!(
                erl.status == 1 || erl.status == 1006,
                "erl ({root:?}, {function}, {env}) did: {erl:?}"
            );
            assert_eq!(ours, erl, "{root:?}, {function}, {env}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
