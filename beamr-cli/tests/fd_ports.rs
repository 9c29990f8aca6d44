//! `open_port({fd, In, Out}, ...)` on descriptors other than 0, 1 and 2:
//! a shell starts the program with `3<in3.txt 4>out4.txt 5<in5.txt
//! 6>>out6.txt`, once on `erl -noshell` and once on `beamr run`; their
//! standard output, exit status and the files written must be the same.
//! (The differential suite cannot open extra descriptors.) The program
//! reads and writes through two ports on 3/4, appends to 6 through an
//! out-only port, reads lines from 5 until the port ends at the end of
//! the file (so nothing is written to it: erl may have ended it before),
//! writes to a descriptor that is not open (the port ends with `ebadf`)
//! and gives `einval`/`badarg` for bad numbers.
//!
//! A third program writes to a FIFO that has no reader: both ports on it
//! end with `epipe` at their first write (beamr once waited for ever to
//! reopen such a descriptor).
//!
//! It runs on the host's OTP and on each release root `cargo xtask
//! test-all` made under `target/otp/` (27, 29), through `chroot`, with
//! beamr on that release's library, as the differential suite does.
//!
//! A descriptor that is not open for input: erts opens the port, then
//! logs `Bad input fd in erts_poll()!` and ends the port with `ebadf` when
//! it next polls, which it does at no fixed time (erl sometimes takes
//! seconds); beamr does so at once, checked on beamr alone below.

mod release_roots;

use std::path::{Path, PathBuf};

use release_roots::{otp_root_env, releases, run_line, shell, work_dir};

const PROGRAM: &str = r#"-module(fdport).
-export([main/0]).
main() ->
    process_flag(trap_exit, true),
    P = open_port({fd, 3, 4}, [binary, eof]),
    io:format("name ~p~n", [erlang:port_info(P, name)]),
    port_command(P, <<"to four\n">>),
    port_command(P, [<<"and ">>, "more\n"]),
    io:format("read ~p~n", [collect(P, [])]),
    port_close(P),
    A = open_port({fd, 0, 6}, [out]),
    port_command(A, "appended\n"),
    port_close(A),
    L = open_port({fd, 5, 6}, [{line, 4}]),
    io:format("lines ~p~n", [collect(L, [])]),
    O = open_port({fd, 0, 201}, [out]),
    io:format("bad output command ~p~n", [port_command(O, "x")]),
    io:format("bad output ~p~n", [exit_reason(O)]),
    Q = open_port({fd, 201, 4}, [out]),
    port_command(Q, "out only\n"),
    port_close(Q),
    io:format("negative ~p~n", [catch_error(fun() -> open_port({fd, -1, 4}, []) end)]),
    io:format("huge ~p~n", [catch_error(fun() -> open_port({fd, 1 bsl 40, 4}, []) end)]),
    io:format("atom ~p~n", [catch_error(fun() -> open_port({fd, a, 4}, []) end)]),
    ok.

catch_error(F) -> try F() of _ -> ok catch error:R -> R end.

exit_reason(P) ->
    receive {'EXIT', P, R} -> R after 5000 -> timeout end.

%% The timeout only ends a port that never ends (timeout is then printed):
%% its data and end come in milliseconds, 20 s is for a loaded machine.
collect(P, Acc) ->
    receive
        {P, {data, D}} -> collect(P, [D | Acc]);
        {P, eof} -> lists:reverse([eof | Acc]);
        {'EXIT', P, R} -> lists:reverse([{exit, R} | Acc])
    after 20000 -> lists:reverse([timeout | Acc])
    end.
"#;

const BAD_INPUT: &str = r#"-module(fdbad).
-export([main/0]).
main() ->
    process_flag(trap_exit, true),
    B = open_port({fd, 200, 201}, [eof]),
    R = receive {'EXIT', B, X} -> X after 5000 -> timeout end,
    io:format("bad input ~p~n", [R]),
    %% The runtime logs the bad descriptor before it ends the port: wait
    %% until that report is written (as tests/diff/lib/logger_sync.erl).
    _ = sys:get_state(logger_proxy),
    ok = logger_std_h:filesync(default).
"#;

/// Writes to a pipe that has no reader: descriptor 7 is the write end of
/// a FIFO whose only reader the shell closed before starting the program.
const NO_READER: &str = r#"-module(fdpipe).
-export([main/0]).
main() ->
    process_flag(trap_exit, true),
    P = open_port({fd, 0, 7}, [out]),
    io:format("command ~p~n", [port_command(P, "lost\n")]),
    io:format("exit ~p~n", [receive {'EXIT', P, X} -> X after 5000 -> timeout end]),
    Q = open_port({fd, 0, 7}, [out]),
    io:format("again ~p~n", [port_command(Q, "lost again\n")]),
    io:format("exit ~p~n", [receive {'EXIT', Q, Y} -> Y after 5000 -> timeout end]).
"#;

const REDIRECTS: &str = "3<in3.txt 4>out4.txt 5<in5.txt 6>>out6.txt";

/// What one run left: standard output, exit status, the two files.
#[derive(Debug, PartialEq)]
struct Outcome {
    stdout: String,
    status: Option<i32>,
    out4: String,
    out6: String,
}

/// Fresh input files and a pre-filled append target in `dir`.
fn prepare(dir: &Path) {
    std::fs::write(dir.join("in3.txt"), "from three\nline two\n").unwrap();
    std::fs::write(dir.join("in5.txt"), "first\nsecond line\nx").unwrap();
    std::fs::write(dir.join("out6.txt"), "kept\n").unwrap();
    let _ = std::fs::remove_file(dir.join("out4.txt"));
}

/// Runs `command` (a shell line) in `dir`, inside `root` when given.
fn run(root: Option<&Path>, dir: &Path, inner: &Path, command: &str) -> Outcome {
    prepare(dir);
    let line = format!(
        "cd {} && exec timeout -s KILL 60 {command} {REDIRECTS}",
        inner.display()
    );
    let out = run_line(root, &line);
    Outcome {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        status: out.status.code(),
        out4: std::fs::read_to_string(dir.join("out4.txt")).unwrap_or_default(),
        out6: std::fs::read_to_string(dir.join("out6.txt")).unwrap_or_default(),
    }
}

/// Compiles the programs into a directory (inside `root`, when given);
/// returns it as seen from here and from inside.
fn compile(root: Option<&Path>, name: &str) -> (PathBuf, PathBuf) {
    let (dir, inner) = work_dir(root, &format!("beamr-fd-{name}"));
    std::fs::write(dir.join("fdport.erl"), PROGRAM).unwrap();
    std::fs::write(dir.join("fdbad.erl"), BAD_INPUT).unwrap();
    std::fs::write(dir.join("fdpipe.erl"), NO_READER).unwrap();
    let line = format!(
        "cd {} && erlc fdport.erl fdbad.erl fdpipe.erl",
        inner.display()
    );
    let status = shell(root, &line).status().expect("erlc runs");
    assert!(status.success(), "erlc failed in {root:?}");
    (dir, inner)
}

fn beamr(root: Option<&Path>, module: &str, dir: &Path) -> String {
    format!(
        "env {} {} run -e {module} {}",
        otp_root_env(root),
        PathBuf::from(env!("CARGO_BIN_EXE_beamr")).display(),
        dir.display()
    )
}

/// For each release: compiles the programs, runs `module` on that
/// release's `erl` (inside its root) and on beamr (outside, on its
/// library) with `run_one(root, dir as seen from here, dir as seen from
/// the run, command)`, and gives both results.
fn erl_and_beamr<T>(
    name: &str,
    module: &str,
    run_one: impl Fn(Option<&Path>, &Path, &Path, &str) -> T,
) -> Vec<(Option<PathBuf>, T, T)> {
    releases()
        .into_iter()
        .map(|root| {
            let (dir, inner) = compile(root.as_deref(), name);
            let erl_line = format!("erl -noshell -pa . -s {module} main -s init stop");
            let erl = run_one(root.as_deref(), &dir, &inner, &erl_line);
            // beamr runs outside the root, on the directory as seen from here.
            let ours = run_one(None, &dir, &dir, &beamr(root.as_deref(), module, &dir));
            std::fs::remove_dir_all(&dir).ok();
            (root, erl, ours)
        })
        .collect()
}

#[test]
fn fd_ports_on_any_open_descriptor_behave_as_on_erl() {
    for (root, erl, ours) in erl_and_beamr("ports", "fdport", run) {
        assert!(
            erl.stdout.contains("bad output ebadf") && erl.out4.contains("out only"),
            "erl ({root:?}) did: {erl:?}"
        );
        assert_eq!(ours, erl, "beamr differs from erl on {root:?}");
    }
}

#[test]
fn an_input_descriptor_that_is_not_open_ends_the_port_with_ebadf() {
    let (dir, _) = compile(None, "bad");
    let ours = run(None, &dir, &dir, &beamr(None, "fdbad", &dir));
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(
        ours.stdout.lines().next(),
        Some("bad input ebadf"),
        "{ours:?}"
    );
    assert!(
        ours.stdout.contains("Bad input fd in erts_poll()! fd=200,"),
        "{ours:?}"
    );
    assert_eq!(ours.status, Some(0));
}

/// Runs `command` in `dir` (inside `root` when given) with descriptor 7
/// the write end of a FIFO that nothing reads: the shell opens the FIFO
/// for reading and writing (so that opening it for writing does not wait),
/// gives the write end to the program and closes its own end first.
fn run_without_reader(root: Option<&Path>, _dir: &Path, inner: &Path, command: &str) -> String {
    let line = format!(
        "cd {} && rm -f fifo && mkfifo fifo && exec 3<>fifo && exec timeout -s KILL 60 {command} 7>fifo 3<&-",
        inner.display()
    );
    let out = shell(root, &line)
        .env("HOME", "/tmp")
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_pipe_without_reader_ends_the_port_with_epipe_as_on_erl() {
    for (root, erl, ours) in erl_and_beamr("pipe", "fdpipe", run_without_reader) {
        assert!(erl.contains("exit epipe"), "erl ({root:?}) did: {erl:?}");
        assert_eq!(ours, erl, "beamr differs from erl on {root:?}");
    }
}
