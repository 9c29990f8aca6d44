//! Many runtimes booting at once on a small machine: each must boot and
//! run its program. The boot used to wait at most 2 s for the application
//! controller and the file server before starting kernel's servers, so
//! that on a loaded machine `inet_db` started too early, crashed, and the
//! boot failed (19 of 240 boots ten at a time, against OTP 27's library).
//! Nothing here is timed: every boot must succeed, however long it takes.

mod support;

use std::process::{Command, Stdio};

const PROGRAM: &str = "-module(booted).\n-export([main/0]).\nmain() -> io:format(\"booted~n\").\n";

#[test]
fn twelve_runtimes_booting_at_once_all_run_their_program() {
    let dir = std::env::temp_dir().join(format!("beamr-boot-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let beam = support::erlc(&dir, "booted", PROGRAM);
    let children: Vec<_> = (0..12)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_beamr"))
                .args(["run", "--no-ctl"])
                .arg(&beam)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("beamr starts")
        })
        .collect();
    let mut failed = Vec::new();
    for child in children {
        let out = child.wait_with_output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        if !out.status.success() || stdout != "booted\n" {
            failed.push(format!(
                "{:?}: {stdout:?} {}",
                out.status,
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}
