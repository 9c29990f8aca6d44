//! `beamr erl ARGS...` against `erl ARGS...`: each of erl's flags beamr
//! takes, run on both with the same command line in the same directory;
//! standard output, standard error and the exit status must be the same
//! (crash dumps included: a failed boot halts with a slogan on both). It
//! runs on the host's OTP and on each release root `cargo xtask test-all`
//! made under `target/otp/` (27, 29), through `chroot`, with beamr on that
//! release's library.
//!
//! The flags beamr refuses (-detached, emulator flags other than `+S`, `+P`,
//! `+Q`, `+t`, `+e` and `+B`, OTP 26's `-shell`) and a limit out of erts's range
//! are one line on standard error and status 2.

mod release_roots;

use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};

use release_roots::{otp_root_env, releases, shell, work_dir};

const PROGRAM: &str = r#"-module(erlcmd).
-export([say/1, boom/0, plain/0, flags/0, path/0, config/0, last_flag/0,
         forever/0, later/0, plimit/0, portlimit/0, ets_past_limit/0]).
say(Words) -> io:format("~p~n", [Words]).
boom() -> error(boom).
plain() -> io:format("~p~n", [init:get_plain_arguments()]).
%% The flags after erl's own (root, bindir, progname, home differ).
flags() ->
    Own = [root, bindir, progname, home],
    io:format("~p~n", [[F || {K, _} = F <- init:get_arguments(), not lists:member(K, Own)]]).
%% The code path without OTP's library.
path() -> io:format("~p~n", [[D || D <- code:get_path(), string:find(D, "lib/erlang") == nomatch]]).
config() ->
    ok = application:load(sasl),
    io:format("~p~n", [[application:get_env(kernel, foo), application:get_env(kernel, bar),
                        application:get_env(stdlib, x), application:get_env(myapp, k),
                        application:get_env(sasl, errlog_type)]]).
last_flag() -> io:format("~p~n", [lists:last(init:get_arguments())]).
forever() -> ok.
later() ->
    spawn(fun() -> timer:sleep(300), io:format("later~n"), halt(7) end),
    ok.
%% Spawns until spawn fails (the report erts logs then has a time stamp:
%% the default handler is removed); the count then is the limit.
plimit() ->
    ok = logger:remove_handler(default),
    Limit = erlang:system_info(process_limit),
    {Ps, Why} = fill(fun() -> {ok, spawn(fun() -> receive stop -> ok end end)} end),
    Full = erlang:system_info(process_count) =:= Limit,
    Refs = [monitor(process, P) || P <- Ps],
    [exit(P, kill) || P <- Ps],
    [receive {'DOWN', R, _, _, _} -> ok end || R <- Refs],
    io:format("~p~n", [{Limit, Why, Full, is_pid(spawn(fun() -> ok end))}]).
%% Makes things with Make until it fails (raises, or answers {error, Why});
%% what it made and why it stopped.
fill(Make) -> fill(Make, []).
fill(Make, Acc) ->
    try Make() of
        {ok, X} -> fill(Make, [X | Acc]);
        {error, Why} -> {Acc, Why}
    catch error:Why -> {Acc, Why}
    end.
%% Opens UDP sockets until one fails; then every way of opening a port
%% fails with system_limit (an accept's connection is closed), and closing
%% the sockets makes room again. The runtime's own ports differ in number,
%% so the table's count is compared with the limit, not printed.
portlimit() ->
    Limit = erlang:system_info(port_limit),
    {ok, L} = gen_tcp:listen(0, [{ip, {127,0,0,1}}]),
    {ok, P} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, P, []),
    {Socks, Why} = fill(fun() -> gen_udp:open(0) end),
    Full = erlang:system_info(port_count) =:= Limit,
    Opens = [catch open_port({spawn, "cat"}, []),
             catch open_port({fd, 0, 1}, []),
             gen_udp:open(0),
             gen_tcp:listen(0, []),
             gen_tcp:connect({127,0,0,1}, P, []),
             file:open(<<"x">>, [ram, binary]),
             gen_tcp:accept(L, 5000)],
    Closed = receive {tcp_closed, C} -> closed after 5000 -> open end,
    [gen_udp:close(S) || S <- Socks],
    {ok, U} = gen_udp:open(0),
    io:format("~p~n", [{Limit, Why, Full, [strip(O) || O <- Opens], Closed, is_port(U)}]).
strip({'EXIT', {Reason, _Stack}}) -> {'EXIT', Reason};
strip(Other) -> Other.
%% erts reports an ETS limit but makes tables past it.
ets_past_limit() ->
    Limit = erlang:system_info(ets_limit),
    Tables = [ets:new(t, []) || _ <- lists:seq(1, Limit + 100)],
    io:format("~p~n", [{Limit, length(Tables)}]).
"#;

const CONFIG: &str = "[{kernel, [{foo, 1}]}, {stdlib, [{x, y}]}, {myapp, [{k, v}]}].\n";

/// Each case: a name and erl's arguments, as shell words.
const CASES: &[(&str, &str)] = &[
    ("eval", r#"-noshell -eval 'io:format("hi~n"), halt().'"#),
    ("eval halt status", "-noshell -eval 'erlang:halt(3)'"),
    ("eval syntax error", "-noshell -eval 'foo(' -s init stop"),
    ("eval error", "-noshell -eval 'error(boom)' -s init stop"),
    ("eval throw", "-noshell -eval 'throw({a, \"b\"})'"),
    ("eval exit", "-noshell -eval 'exit(y)'"),
    ("eval of a crashing call", "-noshell -eval 'erlcmd:boom()'"),
    (
        "s of a missing module",
        "-noshell -s nosuch fun -s init stop",
    ),
    ("s of a function not exported", "-noshell -s erlcmd nofun"),
    ("s of a crashing function", "-noshell -s erlcmd boom"),
    (
        "s, run and eval in order",
        "-noshell -s erlcmd say a b -run erlcmd say c -eval 'erlcmd:say([d])' -s init stop",
    ),
    (
        "plain arguments",
        "foo -noshell -s erlcmd plain -s init stop -- p1 p2 -extra e1 -s +S 2",
    ),
    (
        "flags",
        "-noshell -pa a -pz z -myflag x y -mode interactive -boot start_clean \
         -s erlcmd flags -s init stop",
    ),
    (
        "distribution flags kept for kernel",
        "-noshell -connect_all false -proto_dist inet_tcp -epmd_module erl_epmd \
         -start_epmd false -dist_listen false -cookie x -s erlcmd flags -s init stop",
    ),
    (
        "code path",
        "-noshell -pa a b -pa c -pz z nonexistent -s erlcmd path -s init stop",
    ),
    (
        "env",
        r#"-noshell -env FOO bar -eval 'io:format("~s~n", [os:getenv("FOO")]), halt().'"#,
    ),
    (
        "config",
        "-noshell -config my -kernel bar 2 -sasl errlog_type error -s erlcmd config -s init stop",
    ),
    (
        "config file missing",
        "-noshell -config nosuch -s init stop",
    ),
    ("noinput", "-noinput -s erlcmd last_flag -s init stop"),
    (
        "schedulers",
        r#"-noshell +S 1 -eval 'io:format("one~n")' +S 1:1 -s init stop"#,
    ),
    ("init stop status", "-noshell -eval 'init:stop(4)'"),
    (
        "process limit: system_limit past it",
        "+P 1024 -noshell -s erlcmd plimit -s init stop",
    ),
    (
        "process limit rounded up",
        r#"+P 5000 -noshell -eval 'io:format("~p~n", [erlang:system_info(process_limit)]), halt().'"#,
    ),
    (
        "process limit by default",
        r#"-noshell -eval 'io:format("~p~n", [erlang:system_info(process_limit)]), halt().'"#,
    ),
    (
        "atom limit",
        r#"+t 100000 -noshell -eval 'io:format("~p~n", [erlang:system_info(atom_limit)]), halt().'"#,
    ),
    (
        "atom limit by default",
        r#"-noshell -eval 'io:format("~p~n", [erlang:system_info(atom_limit)]), halt().'"#,
    ),
    (
        "port limit: system_limit past it",
        "+Q 1024 -noshell -s erlcmd portlimit -s init stop",
    ),
    (
        "port limit rounded up",
        r#"+Q 5000 -noshell -eval 'io:format("~p~n", [erlang:system_info(port_limit)]), halt().'"#,
    ),
    (
        "port limit at its largest",
        r#"+Q 100000000 -noshell -eval 'io:format("~p~n", [erlang:system_info(port_limit)]), halt().'"#,
    ),
    (
        "port limit by default",
        r#"-noshell -eval 'io:format("~p~n", [erlang:system_info(port_limit)]), halt().'"#,
    ),
    (
        "process limit at its largest",
        r#"+P 134217727 -noshell -eval 'io:format("~p~n", [erlang:system_info(process_limit)]), halt().'"#,
    ),
    (
        "ets limit",
        r#"+e 20000 -noshell -eval 'io:format("~p~n", [erlang:system_info(ets_limit)]), halt().'"#,
    ),
    (
        "ets limit below the default",
        r#"+e 100 -noshell -eval 'io:format("~p~n", [erlang:system_info(ets_limit)]), halt().'"#,
    ),
    (
        "ets tables past the limit",
        "-noshell -s erlcmd ets_past_limit -s init stop",
    ),
    (
        "halt later from another process",
        "-noshell -s erlcmd later",
    ),
    // erl runs on after its instructions until something halts it.
    ("no halt: runs on", "-noshell -s erlcmd forever"),
];

/// What one run left: standard output, standard error and the status (or
/// 1000 plus the signal that ended it).
#[derive(Debug, PartialEq)]
struct Outcome {
    stdout: String,
    stderr: String,
    status: i32,
}

/// Runs `command` in `inner` (inside `root` when given), with room for
/// the port limit case's 1024 sockets where the hard limit allows, killed after
/// 60 s: a guard against a hung run on a loaded machine, never a measure
/// of speed. A program meant to run on (`erlcmd:forever`) is killed after
/// 8 s on both runtimes, and that is what is compared.
fn run(root: Option<&Path>, inner: &Path, env: &str, command: &str) -> Outcome {
    let limit = if command.contains("forever") { 8 } else { 60 };
    let line = format!(
        "ulimit -c 0; ulimit -n 4096 2>/dev/null; cd {} && rm -f erl_crash.dump && exec env HOME=/tmp {env} \
         timeout -s KILL {limit} {command}",
        inner.display()
    );
    let out = shell(root, &line)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs");
    Outcome {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        status: out
            .status
            .code()
            .or(out.status.signal().map(|s| 1000 + s))
            .unwrap(),
    }
}

fn beamr() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_beamr"))
}

/// A work directory holding erlcmd.beam (compiled by the release's erlc),
/// the config file, and the directories the code path case names.
fn prepared(root: Option<&Path>) -> (PathBuf, PathBuf) {
    let (dir, inner) = work_dir(root, "beamr-erl-command");
    std::fs::write(dir.join("erlcmd.erl"), PROGRAM).unwrap();
    std::fs::write(dir.join("my.config"), CONFIG).unwrap();
    for sub in ["a", "b", "c", "z"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    let compiled = run(root, &inner, "", "erlc erlcmd.erl");
    assert_eq!(compiled.status, 0, "erlc: {compiled:?}");
    (dir, inner)
}

#[test]
fn erl_flags_run_as_on_erl() {
    let mut differing = Vec::new();
    for root in releases() {
        let root = root.as_deref();
        let (dir, inner) = prepared(root);
        for (name, args) in CASES {
            let erl = run(root, &inner, "", &format!("erl {args}"));
            let ours = run(
                None,
                &dir,
                &otp_root_env(root),
                &format!("{} erl {args}", beamr().display()),
            );
            if ours != erl {
                differing.push(format!(
                    "{name} ({root:?}): erl {args}\n  erl:   {erl:?}\n  beamr: {ours:?}"
                ));
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }
    assert!(differing.is_empty(), "{}", differing.join("\n"));
}

#[test]
fn flags_beamr_does_not_take_are_one_line_errors() {
    for (args, named) in [
        ("-noshell -detached", "-detached"),
        ("-noshell +A 4 -s init stop", "+A"),
        ("-noshell -mode embedded -s init stop", "-mode embedded"),
        ("-noshell +S 0", "+S 0"),
        ("-noshell +P 100", "+P 100"),
        ("-noshell +t 8191", "+t 8191"),
        ("-noshell +Q 1023", "+Q 1023"),
        ("-noshell +e -5", "+e -5"),
        ("-noshell -eval 'a' 'b'", "-eval"),
        ("-noshell -shell", "-shell"),
    ] {
        let out = std::process::Command::new(beamr())
            .arg("erl")
            .args(shell_words(args))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args}: {stderr}");
        assert!(stderr.contains(named), "{args}: {stderr}");
        assert!(out.stdout.is_empty(), "{args}");
    }
}

/// `line` split as the shell splits these simple lines (single quotes).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    for c in line.chars() {
        match c {
            '\'' => quoted = !quoted,
            ' ' if !quoted => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}
