//! Distribution between a beamr node and real erl nodes on loopback:
//! `net_adm:ping/1` both ways, messages to registered processes both
//! ways, `erpc:call/4` both ways (with the remote call's output printed on
//! the caller's node), a 50 MB message and 1,000 small ones in order,
//! garbage on the distribution port, a link and monitors across nodes broken by killing the erl OS
//! process, a wrong cookie refused both ways, a hidden beamr node that
//! both sides see as hidden, `net_kernel:monitor_nodes/1,2`, and
//! `global`'s names and `pg`'s groups across both. Each test starts its
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
        ["hidden", Peer] -> hidden(list_to_atom(Peer));
        ["monitor", Peer] -> monitor_nodes(list_to_atom(Peer));
        ["global", Peer] -> global_names(list_to_atom(Peer))
    end.

%% net_kernel:monitor_nodes/1,2 in its four shapes (plain, an options
%% list, options maps) as an erl node's connection comes up and goes
%% with erlang:disconnect_node/1; nodes/2; the process flag's counts.
monitor_nodes(Peer) ->
    ok = net_kernel:monitor_nodes(true),
    ok = net_kernel:monitor_nodes(true, [nodedown_reason, {node_type, all}, connection_id]),
    ok = net_kernel:monitor_nodes(true, #{node_type => all, nodedown_reason => true}),
    ok = net_kernel:monitor_nodes(true, #{connection_id => true}),
    io:format("~p~n", [net_kernel:monitor_nodes(true, [bogus])]),
    pong = ping(Peer),
    io:format("~p~n", [lists:sort([receive M -> event(M) after 10000 -> timeout end || _ <- [1, 2, 3, 4]])]),
    io:format("~p~n", [[{N =:= Peer, maps:map(fun info/2, Info)}
                        || {N, Info} <- nodes(connected, #{connection_id => true, node_type => true})]]),
    true = erlang:disconnect_node(Peer),
    io:format("~p~n", [lists:sort([receive M -> event(M) after 10000 -> timeout end || _ <- [1, 2, 3, 4]])]),
    ok = net_kernel:monitor_nodes(false),
    io:format("~p~n", [[process_flag(monitor_nodes, true), process_flag(monitor_nodes, true),
                        process_flag(monitor_nodes, false)]]).

event({What, _Node}) -> {What, plain};
event({What, _Node, Info}) when is_list(Info) -> {What, [{K, info(K, V)} || {K, V} <- Info]};
event({What, _Node, Info}) when is_map(Info) -> {What, maps:map(fun info/2, Info)}.

%% Connection ids differ from run to run.
info(connection_id, Id) -> is_integer(Id);
info(_, V) -> V.

%% global's names across this node and an erl node: each side's name
%% seen from the other, global:send/2 to the erl side's, a clash refused,
%% an unregistered name gone on both; then a pg group with a member on
%% each node.
global_names(Peer) ->
    pong = ping(Peer),
    Echo = erpc:call(Peer, erlang, whereis, [echo]),
    yes = erpc:call(Peer, global, register_name, [erl_svc, Echo]),
    yes = global:register_name(beamr_svc, self()),
    ok = global:sync(),
    ok = erpc:call(Peer, global, sync, []),
    io:format("~p~n", [{global:whereis_name(erl_svc) =:= Echo,
                        erpc:call(Peer, global, whereis_name, [beamr_svc]) =:= self(),
                        lists:sort(global:registered_names())}]),
    global:send(erl_svc, {self(), hi}),
    io:format("~p~n", [receive R -> R after 10000 -> no_reply end]),
    io:format("~p~n", [global:register_name(erl_svc, self())]),
    _ = global:unregister_name(beamr_svc),
    ok = erpc:call(Peer, global, sync, []),
    io:format("~p~n", [erpc:call(Peer, global, whereis_name, [beamr_svc])]),
    %% pg's groups: a member on each node, seen from both; not against a
    %% peer of OTP 29 or later when this node's library is older (the
    %% peer's discover message crashes OTP 25's pg).
    PeerRelease = list_to_integer(erpc:call(Peer, erlang, system_info, [otp_release])),
    OwnRelease = list_to_integer(erlang:system_info(otp_release)),
    case PeerRelease >= 29 andalso OwnRelease < 29 of
        true -> io:format("pg_not_compared~n");
        false -> pg_groups(Peer, Echo)
    end,
    {echo, Peer} ! {self(), stop}.

pg_groups(Peer, Echo) ->
    {ok, _} = pg:start(pg),
    {ok, _} = erpc:call(Peer, pg, start, [pg]),
    ok = erpc:call(Peer, pg, join, [grp, Echo]),
    ok = pg:join(grp, self()),
    Here = members(fun() -> pg:get_members(grp) end, 2, 100),
    There = members(fun() -> erpc:call(Peer, pg, get_members, [grp]) end, 2, 100),
    io:format("~p~n", [{lists:sort([node(P) || P <- Here]) =:= lists:sort([node(), Peer]),
                        lists:sort(Here) =:= lists:sort(There)}]).

%% The members Get answers once there are N (pg tells other nodes
%% asynchronously), trying Tries times 100 ms apart.
members(Get, N, Tries) ->
    case Get() of
        Ms when length(Ms) =:= N; Tries =:= 0 -> Ms;
        _ -> timer:sleep(100), members(Get, N, Tries - 1)
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

#[test]
fn monitor_nodes_sees_an_erl_node_come_and_go_as_erl_does() {
    let epmd = Epmd::start();
    let cookie = unique("c");
    let mut e = erl(&epmd, &unique("e"), &cookie, ERL_ECHO);
    wait_registered(&epmd, &e.name);
    let b = beamr_node(&epmd, &unique("b"), &cookie, &beam(), &["monitor", &e.name]);
    let (out, err) = b.output(LIMIT);
    // What erl 25 prints for the same program against an erl peer.
    let expected = "{error,{unknown_options,[bogus]}}
[{nodeup,plain},
 {nodeup,#{connection_id => true}},
 {nodeup,#{node_type => visible}},
 {nodeup,[{connection_id,true},{node_type,visible}]}]
[{true,#{connection_id => true,node_type => visible}}]
[{nodedown,plain},
 {nodedown,#{connection_id => true}},
 {nodedown,#{node_type => visible,nodedown_reason => disconnect}},
 {nodedown,[{connection_id,true},
            {nodedown_reason,disconnect},
            {node_type,visible}]}]
[0,1,2]
";
    assert_eq!(out, expected, "beamr's stderr: {err}");
    e.kill();
}

#[test]
fn global_names_and_pg_groups_across_beamr_and_erl() {
    let epmd = Epmd::start();
    let cookie = unique("c");
    let e = erl(&epmd, &unique("e"), &cookie, ERL_ECHO);
    wait_registered(&epmd, &e.name);
    let b = beamr_node(&epmd, &unique("b"), &cookie, &beam(), &["global", &e.name]);
    let (out, err) = b.output(LIMIT);
    let base = "{true,true,[beamr_svc,erl_svc]}\n{echoed,hi}\nno\nundefined\n";
    // pg is compared unless the peer runs a newer release's pg.
    let skipped = dist_support::otp_root().is_some() && out == format!("{base}pg_not_compared\n");
    assert!(
        skipped || out == format!("{base}{{true,true}}\n"),
        "beamr's output: {out}\nbeamr's stderr: {err}"
    );
    e.output(LIMIT);
}

/// A process linked to a process of another node, trapping exits: the
/// link's exit with the reason `kill` (the remote process called
/// `exit(kill)`) is a message, as on erl, not an untrappable kill; and
/// `exit(Pid, kill)` from the other node kills.
const LINK_KILL: &str = r#"-module(linkkill).
-export([run/1]).
run(["local"]) ->
    process_flag(trap_exit, true),
    register(linkkill, self()),
    receive {go, P} -> link(P), P ! linked end,
    receive {'EXIT', From, Why} -> io:format("~p~n", [{'EXIT', node(From) =/= node(), Why}])
    after 30000 -> io:format("nothing~n") end,
    Victim = spawn(fun() -> process_flag(trap_exit, true), receive _ -> ok end end),
    register(victim, Victim),
    Ref = monitor(process, Victim),
    {linkkill_peer, node(P)} ! killme,
    receive {'DOWN', Ref, process, Victim, R} -> io:format("~p~n", [R])
    after 30000 -> io:format("victim alive~n") end;
run(["remote", Node]) ->
    N = list_to_atom(Node),
    register(linkkill_peer, self()),
    P = spawn(fun() -> receive linked -> exit(kill) end end),
    Try = fun T(0) -> exit(no_peer);
              T(K) -> case rpc:call(N, erlang, whereis, [linkkill]) of
                          Pid when is_pid(Pid) -> Pid;
                          _ -> timer:sleep(200), T(K - 1)
                      end end,
    Try(100) ! {go, P},
    receive killme -> exit(rpc:call(N, erlang, whereis, [victim]), kill) after 30000 -> ok end,
    timer:sleep(500).
"#;

#[test]
fn a_link_exit_with_reason_kill_is_trapped_as_on_erl() {
    let beam = compile("linkkill", LINK_KILL);
    let dir = dist_support::erl_code_dir(&beam);
    let local_expr = format!("code:add_path({dir:?}), linkkill:run([\"local\"]), halt().");
    let remote_expr = |node: &str| {
        format!("code:add_path({dir:?}), linkkill:run([\"remote\", {node:?}]), halt().")
    };
    let mut outputs = Vec::new();
    for beamr_side in [false, true] {
        let epmd = Epmd::start();
        let cookie = unique("c");
        let local = if beamr_side {
            let flags = ["-e", "linkkill:run"];
            beamr_node_with(&epmd, &unique("lk"), &cookie, &flags, &beam, &["local"])
        } else {
            erl(&epmd, &unique("lk"), &cookie, &local_expr)
        };
        wait_registered(&epmd, &local.name);
        let remote = erl(&epmd, &unique("lr"), &cookie, &remote_expr(&local.name));
        let (out, err) = local.output(LIMIT);
        remote.output(LIMIT);
        outputs.push((out, err));
    }
    assert_eq!(
        outputs[0].0, "{'EXIT',true,kill}\nkilled\n",
        "{:?}",
        outputs[0]
    );
    assert_eq!(
        outputs[1].0, outputs[0].0,
        "beamr's stderr: {}",
        outputs[1].1
    );
}
