//! `beamr run` on a machine without Erlang/OTP: the committed example runs,
//! and beamr's built-in `io` prints what OTP's `io` prints.

mod support;

use std::path::PathBuf;
use std::process::Command;

fn beamr() -> Command {
    Command::new(env!("CARGO_BIN_EXE_beamr"))
}

/// An environment with no Erlang: no `erl` on the PATH, an empty OTP root.
fn without_otp<'a>(cmd: &'a mut Command, empty: &std::path::Path) -> &'a mut Command {
    cmd.env("PATH", empty).env("BEAMR_OTP_ROOT", empty)
}

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn hello_runs_without_erlang() {
    let empty = tempdir("hello");
    let out = without_otp(
        beamr().arg("run").arg(workspace().join("examples/hello")),
        &empty,
    )
    .output()
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), "Hello, world!\n");
}

#[test]
fn builtin_io_prints_as_otp_io() {
    let fixtures = support::fixtures("run_fallback_io");
    let erl = Command::new("erl")
        .args(["-noshell", "-pa"])
        .arg(&fixtures)
        .args(["-s", "run_fallback_io", "main", "-s", "init", "stop"])
        .output()
        .expect("erl runs");
    assert!(erl.status.success());
    let empty = tempdir("fallback");
    let ours = without_otp(
        beamr()
            .args(["run", "-e", "run_fallback_io"])
            .arg(&fixtures),
        &empty,
    )
    .output()
    .unwrap();
    assert!(
        ours.status.success(),
        "{}",
        String::from_utf8_lossy(&ours.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&ours.stdout),
        String::from_utf8_lossy(&erl.stdout)
    );
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beamr-no-otp-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
