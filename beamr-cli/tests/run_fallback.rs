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

#[test]
fn the_gleam_example_build_runs_without_erlang_or_gleam() {
    let empty = tempdir("gleam");
    let out = without_otp(
        beamr()
            .arg("run")
            .arg(workspace().join("examples/process_ring/build/dev/erlang")),
        &empty,
    )
    .output()
    .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "Hello from Gleam on beamr!\n\
         10 processes, 1 laps: the number came back as 10\n\
         1000 processes, 10 laps: the number came back as 10000\n\
         10000 processes, 3 laps: the number came back as 30000\n"
    );
}

#[test]
fn a_gleam_module_without_main_is_one_line_and_status_2() {
    let empty = tempdir("gleam-nomain");
    let build = workspace().join("examples/process_ring/build/dev/erlang");
    for (module, says) in [
        (
            "process_ring_ffi",
            "module process_ring_ffi has no public main function",
        ),
        (
            "no/such/module",
            "no module no/such/module in this Gleam build",
        ),
    ] {
        let out = without_otp(beamr().arg("run").arg(&build).args(["-e", module]), &empty)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(says), "{stderr}");
    }
}

#[test]
fn a_directory_that_is_neither_beams_nor_a_gleam_build_is_refused() {
    let empty = tempdir("not-gleam");
    let out = beamr().arg("run").arg(&empty).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not a Gleam build"), "{stderr}");
}
