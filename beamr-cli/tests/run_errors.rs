//! `beamr run` on bad input: one line on stderr naming the problem, exit
//! status 2, never a panic; a crash of the program is status 1.

mod support;

use std::path::PathBuf;
use std::process::{Command, Output};

use support::erlc;

fn beamr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_beamr"))
        .args(args)
        .output()
        .unwrap()
}

fn assert_usage_error(out: &Output, mentions: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert_eq!(
        stderr.lines().count(),
        1,
        "one line expected, got: {stderr}"
    );
    assert!(
        stderr.contains(mentions),
        "{stderr:?} should mention {mentions:?}"
    );
    assert!(!stderr.contains("panicked"));
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("beamr-run-errors-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn hello() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/hello")
        .display()
        .to_string()
}

#[test]
fn a_corrupt_beam_file_is_a_one_line_error() {
    let dir = scratch("corrupt");
    let bad = dir.join("bad.beam");
    let mut bytes = std::fs::read(PathBuf::from(hello()).join("hello.beam")).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&bad, bytes).unwrap();
    assert_usage_error(&beamr(&["run", bad.to_str().unwrap()]), "bad.beam");
}

#[test]
fn a_missing_function_is_a_one_line_error() {
    assert_usage_error(&beamr(&["run", "-e", "hello:nope", &hello()]), "hello:nope");
}

#[test]
fn a_missing_module_is_a_one_line_error() {
    assert_usage_error(
        &beamr(&["run", "-e", "no_such_module", &hello()]),
        "no_such_module",
    );
}

#[test]
fn a_path_that_is_not_a_beam_is_a_one_line_error() {
    assert_usage_error(
        &beamr(&["run", "/definitely/not/here.txt"]),
        "not a .beam file",
    );
}

#[test]
fn bad_options_are_one_line_errors() {
    assert_usage_error(&beamr(&["run", "-S", "0", &hello()]), "-S");
    assert_usage_error(&beamr(&["run", "--bogus", &hello()]), "--bogus");
    assert_usage_error(&beamr(&["frobnicate"]), "frobnicate");
}

/// Runs a program that prints `hi` with the inet_db module `source` in
/// its directory, which comes first on the code path, so its inet_db is
/// the one kernel_sup starts.
fn run_with_inet_db(name: &str, source: &str) -> Output {
    let dir = scratch(name);
    erlc(&dir, "inet_db", source);
    erlc(
        &dir,
        "hi",
        "-module(hi).\n-export([main/0]).\nmain() -> io:format(\"hi~n\").\n",
    );
    beamr(&["run", "-e", "hi", dir.to_str().unwrap()])
}

#[test]
fn a_kernel_server_that_does_not_start_fails_the_boot_with_its_reason() {
    // Its {error, boom} must stop the boot, not leave a runtime without
    // inet_db's table.
    let out = run_with_inet_db(
        "kernel-child",
        "-module(inet_db).\n-export([start_link/0]).\nstart_link() -> {error, boom}.\n",
    );
    assert_usage_error(&out, "starting inet_db failed: boom");
    assert!(out.stdout.is_empty(), "the program must not run");
}

#[test]
fn a_kernel_server_whose_init_stops_normally_fails_the_boot_too() {
    // gen_server:start_link answers {error, normal} for an init that
    // returns {stop, normal}: still a server that did not start.
    let out = run_with_inet_db(
        "kernel-child-normal",
        "-module(inet_db).\n-export([start_link/0, init/1]).\n\
         start_link() -> gen_server:start_link({local, inet_db}, inet_db, [], []).\n\
         init([]) -> {stop, normal}.\n",
    );
    assert_usage_error(&out, "starting inet_db failed: normal");
    assert!(out.stdout.is_empty(), "the program must not run");
}

#[test]
fn a_crash_exits_1_with_the_reason() {
    let dir = scratch("crash");
    erlc(
        &dir,
        "crashes",
        "-module(crashes).\n-export([main/0]).\nmain() -> erlang:error(boom).\n",
    );
    let out = beamr(&["run", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.starts_with("{\"init terminating in do_boot\",{boom,"),
        "{stdout}"
    );
}
