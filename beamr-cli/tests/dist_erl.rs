//! Distribution between a beamr node and real erl nodes on loopback:
//! `net_adm:ping/1` both ways, messages to registered processes both
//! ways, `erpc:call/4` both ways (with the remote call's output printed on
//! the caller's node), a 50 MB message and 1,000 small ones in order,
//! garbage on the distribution port, a link and monitors across nodes broken by killing the erl OS
//! process, a wrong cookie refused both ways, and a hidden beamr node
//! that both sides see as hidden. Each test starts its
//! own EPMD and nodes (see `dist_support`) and kills them when done.
//!
//! The erl peers run on the host's OTP, or on another release's root with
//! `BEAMR_DIST_OTP_ROOT=target/otp/27`.

mod dist_support;
mod support;

use std::time::Duration;

use dist_support::{beamr_node, beamr_node_with, compile, erl, unique, wait_registered, Epmd};

const LIMIT: Duration = Duration::from_secs(120);

/// An erl expression: `net_adm:ping(B)` until `pong`, ten tries at most
/// (a loaded machine may miss the handshake's time limit).
const PING: &str = "(fun P(0) -> pang; P(N) -> case net_adm:ping(B) of pong -> pong; \
                    pang -> timer:sleep(500), P(N - 1) end end)(10)";

/// The beamr side of every test: `main/0` reads what to do from its
/// plain arguments.
const PROGRAM: &str = r#"-module(distnode).
-export([main/0, hello/1]).

%% Run here by an erl node's erpc:call: its output goes to the caller's
%% group leader, on the erl node.
hello(X) -> io:format("printed on the caller's side~n"), {hello, X, node()}.

main() ->
    case init:get_plain_arguments() of
        ["serve"] -> serve();
        ["call", Peer] -> call(list_to_atom(Peer));
        ["link", Peer] -> link_and_lose(list_to_atom(Peer));
        ["erpc", Peer] -> erpc_calls(list_to_atom(Peer));
        ["big", Peer] -> big_and_many(list_to_atom(Peer));
        ["ping", Peer] -> io:format("~p~n", [net_adm:ping(list_to_atom(Peer))]);
        ["hidden", Peer] -> hidden(list_to_atom(Peer))
    end.

%% On a hidden node: the connection to an erl node is hidden on both
%% sides (nodes/0 leaves it out, nodes(hidden) and nodes(connected) have
%% it), and erpc works over it.
hidden(Peer) ->
    pong = ping(Peer),
    io:format("~p~n", [{nodes(), nodes(hidden) =:= [Peer], nodes(connected) =:= [Peer]}]),
    io:format("~p~n", [{erpc:call(Peer, erlang, nodes, []),
                        erpc:call(Peer, erlang, nodes, [hidden]) =:= [node()]}]),
    {echo, Peer} ! {self(), stop}.

%% A registered echo server until told to stop.
serve() ->
    register(echo, self()),
    serve_loop().

serve_loop() ->
    receive
        {From, stop} -> From ! {stopped, node()}, timer:sleep(200);
        {From, Msg} -> From ! {echoed, node(), Msg}, serve_loop()
    end.

%% Ping an erl node, talk to its registered echo, see it go.
call(Peer) ->
    io:format("~p~n", [ping(Peer)]),
    io:format("~p~n", [nodes() =:= [Peer]]),
    {echo, Peer} ! {self(), hello},
    receive R -> io:format("~p~n", [R]) after 10000 -> io:format("no reply~n") end,
    true = monitor_node(Peer, true),
    {echo, Peer} ! {self(), stop},
    receive {nodedown, Peer} = D -> io:format("~p~n", [D]) after 30000 -> io:format("no nodedown~n") end,
    io:format("~p~n", [nodes()]).

%% erpc:call to an erl node: results, an exception, and output of the
%% remote call printed here.
erpc_calls(Peer) ->
    pong = ping(Peer),
    io:format("~p~n", [erpc:call(Peer, erlang, node, []) =:= Peer]),
    io:format("~p~n", [erpc:call(Peer, lists, reverse, [[1, 2, 3]])]),
    io:format("~p~n", [try erpc:call(Peer, erlang, error, [boom])
                       catch error:{exception, R, _} -> {caught, R} end]),
    ok = erpc:call(Peer, io, format, ["printed by ~p~n", [remote]]),
    {echo, Peer} ! {self(), stop}.

%% A 50 MB binary there and back, then 1,000 small messages that must
%% come back in order.
big_and_many(Peer) ->
    pong = ping(Peer),
    Big = binary:copy(<<"0123456789">>, 5000000),
    {echo, Peer} ! {self(), Big},
    receive {echoed, B} -> io:format("~p ~p~n", [byte_size(B), B =:= Big])
    after 60000 -> io:format("no reply~n") end,
    [{echo, Peer} ! {self(), N} || N <- lists:seq(1, 1000)],
    Got = [receive {echoed, N} -> N after 10000 -> timeout end || N <- lists:seq(1, 1000)],
    io:format("~p~n", [Got =:= lists:seq(1, 1000)]),
    {echo, Peer} ! {self(), stop}.

%% Link to and monitor a process of an erl node, which then kills its
%% own OS process.
link_and_lose(Peer) ->
    process_flag(trap_exit, true),
    pong = ping(Peer),
    {echo, Peer} ! {self(), victim},
    Victim = receive {victim, V} -> V after 10000 -> exit(no_victim) end,
    io:format("~p~n", [node(Victim) =:= Peer]),
    true = link(Victim),
    Ref = monitor(process, Victim),
    true = monitor_node(Peer, true),
    {echo, Peer} ! {self(), die},
    Got = lists:sort([receive M -> shape(M, Victim, Ref, Peer) after 30000 -> timeout end
                      || _ <- [1, 2, 3]]),
    io:format("~p~n", [Got]).

%% net_adm:ping/1 until pong (a loaded machine may miss the handshake's
%% time limit; each failed try is a whole new connection).
ping(Peer) -> ping(Peer, 10).
ping(_, 0) -> pang;
ping(Peer, N) ->
    case net_adm:ping(Peer) of
        pong -> pong;
        pang -> timer:sleep(500), ping(Peer, N - 1)
    end.

shape({'EXIT', V, R}, V, _, _) -> {exit, R};
shape({'DOWN', Ref, process, V, R}, V, Ref, _) -> {down, R};
shape({nodedown, P}, _, _, P) -> nodedown;
shape(Other, _, _, _) -> {unexpected, Other}.
"#;

/// An erl echo server registered as `echo`: `{From, Msg}` is answered
/// `{echoed, Msg}`; `victim` with a fresh process's pid; `die` kills the
/// node's OS process; `stop` halts the node.
const ERL_ECHO: &str = r#"register(echo, self()),
  Loop = fun L() ->
      receive
          {P, stop} -> erlang:halt();
          {P, victim} -> V = spawn(fun() -> receive never -> ok end end), P ! {victim, V}, L();
          {_, die} -> os:cmd("kill -9 " ++ os:getpid());
          {P, M} -> P ! {echoed, M}, L()
      end
  end,
  receive after 200 -> ok end, Loop()."#;

fn beam() -> std::path::PathBuf {
    compile("distnode", PROGRAM)
}

#[test]
fn erl_pings_beamr_and_talks_to_a_registered_process() {
    let epmd = Epmd::start();
    let cookie = unique("c");
    let b = beamr_node(&epmd, &unique("b"), &cookie, &beam(), &["serve"]);
    wait_registered(&epmd, &b.name);
    // The echo registers once main runs: try until it answers.
    let expr = format!(
        "B = '{b}', pong = {PING}, io:format(\"~p~n\", [nodes() =:= [B]]),
         Try = fun T(0) -> io:format(\"no reply~n\");
                   T(N) -> {{echo, B}} ! {{self(), hi}},
                           receive R -> io:format(\"~p~n\", [R]) after 500 -> T(N - 1) end end,
         Try(60),
         {{echo, B}} ! {{self(), stop}},
         receive {{stopped, _}} = S -> io:format(\"~p~n\", [S]) after 10000 -> io:format(\"no stop~n\") end,
         halt().",
        b = b.name
    );
    let e = erl(&epmd, &unique("e"), &cookie, &expr);
    let (out, err) = e.output(LIMIT);
    assert_eq!(
        out,
        format!("true\n{{echoed,{b},hi}}\n{{stopped,{b}}}\n", b = b.name),
        "erl's stderr: {err}"
    );
    let (bout, berr) = b.output(LIMIT);
    assert_eq!(bout, "", "beamr's stderr: {berr}");
}

#[test]
fn beamr_pings_erl_talks_to_a_registered_process_and_sees_it_go() {
    let epmd = Epmd::start();
    let cookie = unique("c");
    let e = erl(&epmd, &unique("e"), &cookie, ERL_ECHO);
    wait_registered(&epmd, &e.name);
    let b = beamr_node(&epmd, &unique("b"), &cookie, &beam(), &["call", &e.name]);
    let (out, err) = b.output(LIMIT);
    assert_eq!(
        out,
        format!(
            "pong\ntrue\n{{echoed,hello}}\n{{nodedown,{e}}}\n[]\n",
            e = e.name
        ),
        "beamr's stderr: {err}"
    );
    e.output(LIMIT);
}

#[test]
fn erpc_calls_both_ways_with_remote_output_on_the_callers_side() {
    let epmd = Epmd::start();
    let cookie = unique("c");
    let b = beamr_node(&epmd, &unique("b"), &cookie, &beam(), &["serve"]);
    wait_registered(&epmd, &b.name);
    let expr = format!(
        "B = '{b}', pong = {PING},
         io:format(\"~p~n\", [erpc:call(B, distnode, hello, [1])]),
         io:format(\"~p~n\", [try erpc:call(B, erlang, error, [boom])
                              catch error:{{exception, R, _}} -> {{caught, R}} end]),
         io:format(\"~p~n\", [erpc:call(B, erlang, is_alive, [])]),
         {{echo, B}} ! {{self(), stop}},
         receive _ -> ok after 10000 -> ok end,
         halt().",
        b = b.name
    );
    let e = erl(&epmd, &unique("e"), &cookie, &expr);
    let (out, err) = e.output(LIMIT);
    assert_eq!(
        out,
        format!(
            "printed on the caller's side\n{{hello,1,{b}}}\n{{caught,boom}}\ntrue\n",
            b = b.name
        ),
        "erl's stderr: {err}"
    );
    b.output(LIMIT);

    let e = erl(&epmd, &unique("e"), &cookie, ERL_ECHO);
    wait_registered(&epmd, &e.name);
    let b = beamr_node(&epmd, &unique("b"), &cookie, &beam(), &["erpc", &e.name]);
    let (out, err) = b.output(LIMIT);
    assert_eq!(
        out, "true\n[3,2,1]\n{caught,boom}\nprinted by remote\n",
        "beamr's stderr: {err}"
    );
    e.output(LIMIT);
}

#[test]
fn a_link_and_monitors_across_nodes_break_with_noconnection_when_erl_is_killed() {
    let epmd = Epmd::start();
    let cookie = unique("c");
    let e = erl(&epmd, &unique("e"), &cookie, ERL_ECHO);
    wait_registered(&epmd, &e.name);
    let b = beamr_node(&epmd, &unique("b"), &cookie, &beam(), &["link", &e.name]);
    let (out, err) = b.output(LIMIT);
    assert_eq!(
        out, "true\n[nodedown,{down,noconnection},{exit,noconnection}]\n",
        "beamr's stderr: {err}"
    );
    e.output(LIMIT);
}

#[test]
fn a_50_mb_message_and_many_small_ones_in_order() {
    let epmd = Epmd::start();
    let cookie = unique("c");
    let e = erl(&epmd, &unique("e"), &cookie, ERL_ECHO);
    wait_registered(&epmd, &e.name);
    let b = beamr_node(&epmd, &unique("b"), &cookie, &beam(), &["big", &e.name]);
    let (out, err) = b.output(LIMIT);
    assert_eq!(out, "50000000 true\ntrue\n", "beamr's stderr: {err}");
    e.output(LIMIT);
}

#[test]
fn garbage_on_the_distribution_port_closes_that_connection_only() {
    let epmd = Epmd::start();
    let cookie = unique("c");
    let b = beamr_node(&epmd, &unique("b"), &cookie, &beam(), &["serve"]);
    wait_registered(&epmd, &b.name);
    let port = dist_support::dist_port(&epmd, &b.name);
    for garbage in [
        &b"\x00\x05hello"[..],
        &b"\xff\xff"[..],
        &b"\x00\x0fN\x00\x00\x00\x00\x00\x00\x00\x00\x00"[..],
        &[0u8; 3][..],
    ] {
        use std::io::{Read, Write};
        let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        let _ = s.write_all(garbage);
        let _ = s.shutdown(std::net::Shutdown::Write);
        // The node closes the connection (no answer but a refusal).
        let mut rest = Vec::new();
        let _ = s.read_to_end(&mut rest);
    }
    // The node still runs and still connects.
    let expr = format!(
        "B = '{b}', io:format(\"~p~n\", [{PING}]),
         {{echo, B}} ! {{self(), stop}}, receive _ -> ok after 10000 -> ok end, halt().",
        b = b.name
    );
    let (out, err) = erl(&epmd, &unique("e"), &cookie, &expr).output(LIMIT);
    assert_eq!(out, "pong\n", "erl's stderr: {err}");
    let (_, berr) = b.output(LIMIT);
    assert!(!berr.contains("panicked"), "beamr's stderr: {berr}");
}

#[test]
fn a_wrong_cookie_is_refused_both_ways() {
    let epmd = Epmd::start();
    let b = beamr_node(&epmd, &unique("b"), "right", &beam(), &["serve"]);
    wait_registered(&epmd, &b.name);
    let expr = format!(
        "io:format(\"~p~n\", [net_adm:ping('{b}')]), io:format(\"~p~n\", [nodes()]), halt().",
        b = b.name
    );
    let (out, err) = erl(&epmd, &unique("e"), "wrong", &expr).output(LIMIT);
    assert_eq!(out, "pang\n[]\n", "erl's stderr: {err}");
    let e = erl(&epmd, &unique("e"), "wrong", ERL_ECHO);
    wait_registered(&epmd, &e.name);
    let pinger = beamr_node(&epmd, &unique("b"), "right", &beam(), &["ping", &e.name]);
    let (out, err) = pinger.output(LIMIT);
    assert_eq!(out, "pang\n", "beamr's stderr: {err}");
    drop(b);
    drop(e);
}

#[test]
fn a_hidden_beamr_node_is_hidden_on_both_sides() {
    let epmd = Epmd::start();
    let cookie = unique("c");
    let e = erl(&epmd, &unique("e"), &cookie, ERL_ECHO);
    wait_registered(&epmd, &e.name);
    let b = beamr_node_with(
        &epmd,
        &unique("b"),
        &cookie,
        &["--hidden"],
        &beam(),
        &["hidden", &e.name],
    );
    let (out, err) = b.output(LIMIT);
    assert_eq!(out, "{[],true,true}\n{[],true}\n", "beamr's stderr: {err}");
    e.output(LIMIT);
}
