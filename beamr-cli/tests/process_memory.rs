//! A process costs no more memory on beamr than on the BEAM: the same
//! program, on `erl` and on `beamr run`, prints `process_info(P, memory)`
//! of a fresh process waiting in a `receive`, and how much
//! `erlang:memory(processes)` grows per process while 50,000 such
//! processes wait (their pids kept in a list, as spawn_many keeps them).
//! beamr's figures must be no larger than erl's, on the host's OTP and on
//! each release root `cargo xtask test-all` made (27, 29). So must the
//! memory of a process that built a large map in a loop.

mod release_roots;

use std::path::{Path, PathBuf};

use release_roots::{otp_root_env, releases, shell, work_dir};

const PROGRAM: &str = r#"-module(procmem).
-export([main/0]).
main() ->
    Waiting = spawn(fun wait/0),
    waiting(Waiting),
    {memory, One} = process_info(Waiting, memory),
    N = 50000,
    Before = erlang:memory(processes),
    Pids = [spawn(fun wait/0) || _ <- lists:seq(1, N)],
    lists:foreach(fun waiting/1, Pids),
    After = erlang:memory(processes),
    io:format("process_info ~p per_process ~p~n", [One, (After - Before) div N]),
    [P ! stop || P <- [Waiting | Pids]],
    ok.

wait() -> receive stop -> ok end.

%% Until P waits in its receive (however long a loaded machine takes to
%% run it there).
waiting(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> timer:sleep(1), waiting(P)
    end.
"#;

/// Programs that end by printing `Label Bytes` pairs (and only them) on
/// one line.
const MAP_PROGRAM: &str = r#"-module(mapmem).
-export([main/0]).
main() ->
    M = build(100000, #{}),
    {memory, Bytes} = process_info(self(), memory),
    100000 = map_size(M),
    io:format("after_map_loop ~p~n", [Bytes]).
build(0, M) -> M;
build(N, M) -> build(N - 1, M#{N => N * 2}).
"#;

/// The numbers the run at `line` printed, each after its label.
fn figures(root: Option<&Path>, line: &str) -> Vec<(String, u64)> {
    let out = shell(root, line)
        .env("HOME", "/tmp")
        .output()
        .expect("sh runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let words: Vec<&str> = stdout.split_whitespace().collect();
    let pairs: Option<Vec<(String, u64)>> = words
        .chunks(2)
        .map(|pair| match pair {
            [label, n] => Some((label.to_string(), n.parse().ok()?)),
            _ => None,
        })
        .collect();
    match pairs {
        Some(pairs) if !pairs.is_empty() => pairs,
        _ => panic!(
            "`{line}` printed {stdout:?}, stderr {:?}",
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// Runs `module` (source `program`) on erl and on beamr for each release
/// and asserts each figure beamr prints is no larger than erl's.
fn no_larger_than_on_erl(module: &str, program: &str) {
    for root in releases() {
        let (dir, inner) = work_dir(root.as_deref(), &format!("beamr-{module}"));
        std::fs::write(dir.join(format!("{module}.erl")), program).unwrap();
        let compile = format!("cd {} && erlc {module}.erl", inner.display());
        let status = shell(root.as_deref(), &compile)
            .status()
            .expect("erlc runs");
        assert!(status.success(), "erlc failed in {root:?}");
        let erl = figures(
            root.as_deref(),
            &format!(
                "cd {} && erl -noshell -s {module} main -s init stop",
                inner.display()
            ),
        );
        let ours = figures(
            None,
            &format!(
                "env {} {} run -e {module} {}",
                otp_root_env(root.as_deref()),
                PathBuf::from(env!("CARGO_BIN_EXE_beamr")).display(),
                dir.display()
            ),
        );
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(ours.len(), erl.len(), "beamr printed {ours:?}, erl {erl:?}");
        for ((label, beamr_bytes), (_, erl_bytes)) in ours.iter().zip(&erl) {
            assert!(
                beamr_bytes <= erl_bytes,
                "{label} on {root:?}: beamr {beamr_bytes} bytes, erl {erl_bytes}"
            );
        }
    }
}

#[test]
fn a_waiting_process_takes_no_more_memory_than_on_erl() {
    no_larger_than_on_erl("procmem", PROGRAM);
}

/// A loop that only updates a map has no `test_heap`: beamr once never
/// collected in it and held every old version of the map (58 MB against
/// erl's 12 MB for 100,000 keys); map updates now collect when due, as
/// the BEAM's do.
#[test]
fn a_map_built_in_a_loop_leaves_no_more_garbage_than_on_erl() {
    no_larger_than_on_erl("mapmem", MAP_PROGRAM);
}
