//! Standard input larger than a program reads, and read to its end, piped
//! into `erl -noshell` and into `beamr run` (on the host's OTP and on each
//! release root under `target/otp/`): their standard output and exit status
//! must be the same.
//!
//! - `twolines` reads two lines of a 10 MB input (in binary mode, then in
//!   list mode) and returns. Nothing waits for the rest of the input:
//!   beamr once took the whole input into its group leader's buffer first,
//!   one chunk at a time with a copy of all before it each time (half a
//!   minute for 10 MB); the run is killed after [`LIMIT_S`].
//! - `count` reads a 1 MB input line by line to its end, half of it in
//!   binary mode (`file:read_line/1`) and half in list mode
//!   (`io:get_line/1`), and prints the counts and a checksum of the lines.

mod release_roots;

use std::path::{Path, PathBuf};

use release_roots::{otp_root_env, releases, run_line, shell, work_dir};

/// Seconds a run may take before it is killed: erl needs about one for
/// either program, a debug beamr less on a quiet machine; the rest is
/// for a loaded one.
const LIMIT_S: u32 = 60;

const TWO_LINES: &str = r#"-module(twolines).
-export([main/0]).
main() ->
    ok = io:setopts(standard_io, [binary]),
    io:format("~p~n", [io:get_line('')]),
    ok = io:setopts(standard_io, [list]),
    io:format("~p~n", [io:get_line('')]).
"#;

const COUNT: &str = r#"-module(count).
-export([main/0]).
main() ->
    ok = io:setopts(standard_io, [binary]),
    {N1, B1, S1} = binary_lines(10000, 0, 0, 0),
    io:format("binary ~p lines, ~p bytes, sum ~p~n", [N1, B1, S1]),
    ok = io:setopts(standard_io, [list]),
    {N2, B2, S2} = list_lines(0, 0, 0),
    io:format("list ~p lines, ~p chars, sum ~p~n", [N2, B2, S2]).

binary_lines(0, N, B, S) -> {N, B, S};
binary_lines(K, N, B, S) ->
    case file:read_line(standard_io) of
        {ok, L} when is_binary(L) ->
            binary_lines(K - 1, N + 1, B + byte_size(L), (S + erlang:crc32(L)) rem 1000003);
        Other -> {Other, N, B}
    end.

list_lines(N, B, S) ->
    case io:get_line('') of
        eof -> {N, B, S};
        L when is_list(L) ->
            list_lines(N + 1, B + length(L), (S + erlang:crc32(L)) rem 1000003);
        Other -> {Other, N, B}
    end.
"#;

/// An input of about `bytes` bytes, in numbered lines of varying length.
fn input(bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes + 100);
    let mut i = 0usize;
    while out.len() < bytes {
        out.extend_from_slice(format!("line {i} {}\n", "x".repeat(i % 97)).as_bytes());
        i += 1;
    }
    out
}

/// Standard output and exit status of `command` run in `inner` (inside
/// `root` when given) with `file` piped into it.
fn run(root: Option<&Path>, inner: &Path, command: &str, file: &str) -> (String, Option<i32>) {
    let line = format!(
        "cd {} && cat {file} | timeout -s KILL {LIMIT_S} {command}",
        inner.display()
    );
    let out = run_line(root, &line);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        out.status.code(),
    )
}

/// Runs `module` with `file` on erl and on beamr, on every release.
fn compare(module: &str, source: &str, file: &str, bytes: usize) {
    for root in releases() {
        let root = root.as_deref();
        let (dir, inner) = work_dir(root, &format!("beamr-stdin-{module}"));
        std::fs::write(dir.join(format!("{module}.erl")), source).unwrap();
        std::fs::write(dir.join(file), input(bytes)).unwrap();
        let compiled = shell(
            root,
            &format!("cd {} && erlc {module}.erl", inner.display()),
        )
        .status()
        .expect("erlc runs");
        assert!(compiled.success(), "erlc failed in {root:?}");
        let erl = run(
            root,
            &inner,
            &format!("erl -noshell -pa . -s {module} main -s init stop"),
            file,
        );
        let beamr = format!(
            "env {} {} run -e {module} {}",
            otp_root_env(root),
            PathBuf::from(env!("CARGO_BIN_EXE_beamr")).display(),
            dir.display()
        );
        // beamr runs outside the root, on the directory as seen from here.
        let ours = run(None, &dir, &beamr, file);
        std::fs::remove_dir_all(&dir).ok();
        assert!(
            erl.1 == Some(0) && erl.0.lines().count() == 2,
            "erl ({root:?}) did: {erl:?}"
        );
        assert_eq!(ours, erl, "beamr differs from erl on {root:?}");
    }
}

#[test]
fn two_lines_of_a_large_input_are_read_without_the_rest() {
    compare("twolines", TWO_LINES, "big.txt", 10_000_000);
}

#[test]
fn a_large_input_read_line_by_line_in_both_modes_is_read_whole() {
    compare("count", COUNT, "mid.txt", 1_000_000);
}
