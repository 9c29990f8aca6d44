//! Code the compiler's validator would have rejected, which once made a
//! slice panic (`get_hd` reached with `[]` once a module's one
//! `is_nonempty_list` test is made `is_list`), ends `beamr run` as an
//! Erlang error does: `badarg` in the function, status 1, never a panic or
//! a hang. (A slice that still panics, a bug in beamr, ends the run with
//! the internal error's slogan: `beamr-sched/src/sched/internal_error.rs`.)

mod support;

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Opcode numbers from OTP's genop.tab.
const IS_LIST: u8 = 55;
const IS_NONEMPTY_LIST: u8 = 56;

/// `beam` with its one `is_nonempty_list` test made an `is_list` test:
/// the opcode byte in the `Code` chunk (IFF chunks: a 4-byte id and a
/// 4-byte big-endian size).
fn with_is_list(mut beam: Vec<u8>) -> Vec<u8> {
    let at = beam
        .windows(4)
        .position(|w| w == b"Code")
        .expect("a Code chunk");
    let size = u32::from_be_bytes(beam[at + 4..at + 8].try_into().unwrap()) as usize;
    let code = at + 8..at + 8 + size;
    let tests: Vec<usize> = code
        .clone()
        .filter(|&i| beam[i] == IS_NONEMPTY_LIST)
        .collect();
    assert_eq!(
        tests.len(),
        1,
        "expected one is_nonempty_list byte in {code:?}"
    );
    beam[tests[0]] = IS_LIST;
    beam
}

#[test]
fn a_get_hd_on_a_non_cons_is_badarg_not_a_panic() {
    let fixtures = support::fixtures("list_head");
    let dir = std::env::temp_dir().join(format!("beamr-internal-error-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let beam = std::fs::read(fixtures.join("list_head.beam")).unwrap();
    std::fs::write(dir.join("list_head.beam"), with_is_list(beam)).unwrap();

    let mut child = Command::new(env!("CARGO_BIN_EXE_beamr"))
        .args(["run", dir.join("list_head.beam").to_str().unwrap()])
        // The panic message stays short: stderr is read once it exits.
        .env("RUST_BACKTRACE", "0")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("beamr hung on a get_hd of []");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();

    assert_eq!(status.code(), Some(1), "stderr: {stderr}");
    assert!(
        stderr.contains("init terminating in do_boot ({badarg,[{list_head,head,1,")
            && !stderr.contains("beamr internal error"),
        "stderr: {stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
