//! A process costs no more memory on beamr than on the BEAM: the same
//! program, on `erl` and on `beamr run`, prints `process_info(P, memory)`
//! of a fresh process waiting in a `receive`, and how much
//! `erlang:memory(processes)` grows per process while 50,000 such
//! processes wait (their pids kept in a list, as spawn_many keeps them).
//! beamr's figures must be no larger than erl's, on the host's OTP and on
//! each release root `cargo xtask test-all` made (27, 29).

mod release_roots;

use std::path::{Path, PathBuf};

use release_roots::{otp_root_env, releases, shell, work_dir};

const PROGRAM: &str = r#"-module(procmem).
-export([main/0]).
main() ->
    Waiting = spawn(fun wait/0),
    timer:sleep(20),
    {memory, One} = process_info(Waiting, memory),
    N = 50000,
    Before = erlang:memory(processes),
    Pids = [spawn(fun wait/0) || _ <- lists:seq(1, N)],
    timer:sleep(200),
    After = erlang:memory(processes),
    io:format("~p ~p~n", [One, (After - Before) div N]),
    [P ! stop || P <- [Waiting | Pids]],
    ok.

wait() -> receive stop -> ok end.
"#;

/// `(process_info memory, memory(processes) growth per process)` as the
/// run at `line` printed them.
fn figures(root: Option<&Path>, line: &str) -> (u64, u64) {
    let out = shell(root, line)
        .env("HOME", "/tmp")
        .output()
        .expect("sh runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let numbers: Vec<u64> = stdout
        .split_whitespace()
        .filter_map(|word| word.parse().ok())
        .collect();
    match numbers[..] {
        [one, per_process] => (one, per_process),
        _ => panic!(
            "`{line}` printed {stdout:?}, stderr {:?}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

#[test]
fn a_waiting_process_takes_no_more_memory_than_on_erl() {
    for root in releases() {
        let (dir, inner) = work_dir(root.as_deref(), "beamr-procmem");
        std::fs::write(dir.join("procmem.erl"), PROGRAM).unwrap();
        let compile = format!("cd {} && erlc procmem.erl", inner.display());
        let status = shell(root.as_deref(), &compile)
            .status()
            .expect("erlc runs");
        assert!(status.success(), "erlc failed in {root:?}");
        let erl = figures(
            root.as_deref(),
            &format!(
                "cd {} && erl -noshell -s procmem main -s init stop",
                inner.display()
            ),
        );
        let ours = figures(
            None,
            &format!(
                "env {} {} run -e procmem {}",
                otp_root_env(root.as_deref()),
                PathBuf::from(env!("CARGO_BIN_EXE_beamr")).display(),
                dir.display()
            ),
        );
        std::fs::remove_dir_all(&dir).ok();
        assert!(
            ours.0 <= erl.0,
            "process_info(P, memory) on {root:?}: beamr {} bytes, erl {}",
            ours.0,
            erl.0
        );
        assert!(
            ours.1 <= erl.1,
            "memory(processes) per waiting process on {root:?}: beamr {} bytes, erl {}",
            ours.1,
            erl.1
        );
    }
}
