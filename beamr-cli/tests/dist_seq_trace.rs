//! `seq_trace` tokens across nodes, as erts carries them: a client node
//! sets a token (label 7, `send` and `'receive'`) on a request to
//! `{echo, Node}` (REG_SEND_TT) and gets the answer sent to its pid
//! (SEND_SENDER_TT); each node's system tracer prints what it saw. Every
//! pairing of erl and beamr nodes, client and echo, must print what erl
//! with erl prints: the same events, serials and endpoints. And an erl ->
//! beamr -> beamr chain, each beamr node recording its own ring, drawn as
//! one diagram by `beamr trace seq NODE=FILE NODE=FILE`.

mod dist_support;
mod support;

use std::time::Duration;

use dist_support::{
    beamr, beamr_node, beamr_node_with, compile, erl, erl_with, unique, wait_registered, Epmd, Node,
};

const LIMIT: Duration = Duration::from_secs(120);

const PROGRAM: &str = r#"-module(seqnode).
-export([main/0, run/1]).

%% The roles of the seq_trace tests across nodes. `echo': a registered
%% `echo' answering one request, then printing what its node's system
%% tracer saw. `relay Node': a registered `relay' passing one request on
%% to {echo, Node}, then the stop. `client Name Node': a token (label 7,
%% send and receive) on a request to {Name, Node} and its answer, then
%% what this node's system tracer saw. Pids print as local or remote.
main() -> run(init:get_plain_arguments()).

run(["echo"]) -> echo();
run(["relay", Node]) -> relay(list_to_atom(Node));
run(["client", Name, Node]) -> client(list_to_atom(Name), list_to_atom(Node)).

collector() ->
    Self = self(),
    C = spawn(fun() -> collect(Self, []) end),
    seq_trace:set_system_tracer(C),
    C.

collect(Owner, Acc) ->
    receive
        {seq_trace, Label, Info} -> collect(Owner, [{Label, Info} | Acc]);
        {seq_trace, Label, Info, _Ts} -> collect(Owner, [{Label, Info} | Acc]);
        dump -> Owner ! {events, lists:reverse(Acc)}
    end.

events(C) ->
    C ! dump,
    receive {events, Es} -> [shape(E) || E <- Es] after 10000 -> timeout end.

shape({Label, {Kind, Serial, From, To, Msg}}) ->
    {Label, Kind, Serial, who(From), who(To), msg(Msg)}.

who(P) when is_pid(P) -> case node(P) =:= node() of true -> local; false -> remote end;
who({Name, N}) when is_atom(N) -> {Name, case N =:= node() of true -> local; false -> remote end};
who(Other) -> Other.

msg({P, X}) when is_pid(P) -> {who(P), X};
msg(X) -> X.

echo() ->
    C = collector(),
    register(echo, self()),
    receive {From, Msg} -> From ! {echoed, Msg} after 60000 -> exit(no_request) end,
    receive stop -> ok after 60000 -> exit(no_stop) end,
    timer:sleep(200),
    io:format("~p~n", [events(C)]).

relay(Node) ->
    register(relay, self()),
    receive {From, Msg} -> {echo, Node} ! {From, Msg} after 60000 -> exit(no_request) end,
    receive stop -> {echo, Node} ! stop after 60000 -> exit(no_stop) end.

client(Name, Node) ->
    C = collector(),
    pong = ping(Node, 20),
    seq_trace:set_token(label, 7),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    {Name, Node} ! {self(), hi},
    receive {echoed, hi} = R -> ok after 30000 -> R = timeout end,
    seq_trace:set_token([]),
    {Name, Node} ! stop,
    timer:sleep(200),
    io:format("~p~n~p~n", [R, events(C)]).

ping(_, 0) -> pang;
ping(Node, N) ->
    case net_adm:ping(Node) of
        pong -> pong;
        pang -> timer:sleep(300), ping(Node, N - 1)
    end.
"#;

#[derive(Clone, Copy, Debug)]
enum Runtime {
    Erl,
    Beamr,
}

/// A node of `runtime` running `seqnode:run(args)`.
fn start(runtime: Runtime, epmd: &Epmd, cookie: &str, args: &[&str]) -> Node {
    let beam = compile("seqnode", PROGRAM);
    match runtime {
        Runtime::Beamr => beamr_node(epmd, &unique("sq"), cookie, &beam, args),
        Runtime::Erl => {
            let dir = dist_support::erl_code_dir(&beam);
            let quoted: Vec<String> = args.iter().map(|a| format!("{a:?}")).collect();
            let expr = format!(
                "code:add_path({dir:?}), seqnode:run([{}]), halt().",
                quoted.join(", ")
            );
            erl(epmd, &unique("sq"), cookie, &expr)
        }
    }
}

/// What the client and the echo node print.
fn run(client: Runtime, echo: Runtime) -> (String, String) {
    let epmd = Epmd::start();
    let cookie = unique("c");
    let e = start(echo, &epmd, &cookie, &["echo"]);
    wait_registered(&epmd, &e.name);
    let c = start(client, &epmd, &cookie, &["client", "echo", &e.name]);
    let (client_out, client_err) = c.output(LIMIT);
    let (echo_out, echo_err) = e.output(LIMIT);
    assert!(
        client_out.starts_with("{echoed,hi}\n"),
        "{client:?} client: {client_out}{client_err}; {echo:?} echo: {echo_err}"
    );
    (client_out, echo_out)
}

#[test]
fn tokens_cross_nodes_as_between_erl_nodes() {
    let expected = run(Runtime::Erl, Runtime::Erl);
    assert!(
        expected
            .0
            .contains("{7,'receive',{1,2},remote,local,{echoed,hi}}"),
        "{expected:?}"
    );
    for (client, echo) in [
        (Runtime::Erl, Runtime::Beamr),
        (Runtime::Beamr, Runtime::Erl),
        (Runtime::Beamr, Runtime::Beamr),
    ] {
        assert_eq!(
            run(client, echo),
            expected,
            "{client:?} client, {echo:?} echo"
        );
    }
}

/// erl -> beamr -> beamr: an erl client's request goes through a relay on
/// one beamr node to an echo on another, which answers the client. Each
/// beamr node records its own ring; `beamr trace seq` merges the two into
/// one diagram by the token's serials.
#[test]
fn an_erl_beamr_beamr_chain_is_one_diagram_from_two_rings() {
    let epmd = Epmd::start();
    let cookie = unique("c");
    let dir = std::env::temp_dir().join(unique("beamr-seq-rings"));
    std::fs::create_dir_all(&dir).unwrap();
    let beam = compile("seqnode", PROGRAM);
    let ring = |name: &str| dir.join(format!("{name}.ring"));
    let recorded = |node: &str, args: &[&str]| {
        let name = unique(node);
        let to = format!("ring:{}", ring(&name).display());
        let flags = ["--trace", "procs", "--trace-to", &to];
        (
            beamr_node_with(&epmd, &name, &cookie, &flags, &beam, args),
            name,
        )
    };
    let (echo, echo_name) = recorded("echo", &["echo"]);
    wait_registered(&epmd, &echo.name);
    let (relay, relay_name) = recorded("relay", &["relay", &echo.name]);
    wait_registered(&epmd, &relay.name);
    // Not connected to the echo's node, the client's `global` may cut its
    // connection to the relay's (its prevention of overlapping
    // partitions, erl's too): without `connect_all` it leaves them be.
    let dir_text = dist_support::erl_code_dir(&beam);
    let expr = format!(
        "code:add_path({dir_text:?}), seqnode:run([\"client\", \"relay\", {:?}]), halt().",
        relay.name
    );
    let client = erl_with(
        &epmd,
        &unique("sq"),
        &cookie,
        &["-connect_all", "false"],
        &expr,
    );
    let client_name = client.name.clone();
    let (out, err) = client.output(LIMIT);
    assert!(out.starts_with("{echoed,hi}\n"), "{out}{err}");
    let (relay_node, echo_node) = (relay.name.clone(), echo.name.clone());
    let (_, relay_err) = relay.output(LIMIT);
    let (_, echo_err) = echo.output(LIMIT);
    let named = |node: &str, name: &str| format!("{node}={}", ring(name).display());
    let merged = std::process::Command::new(beamr())
        .args(["trace", "seq"])
        .arg(named(&relay_node, &relay_name))
        .arg(named(&echo_node, &echo_name))
        .args(["--label", "7"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&merged.stdout);
    assert!(
        merged.status.success(),
        "{}{relay_err}{echo_err}",
        String::from_utf8_lossy(&merged.stderr)
    );
    let lines: Vec<&str> = text.lines().collect();
    let participant =
        |i: usize, node: &str| lines[i].starts_with(&format!("    participant P{i} as <{node}."));
    assert_eq!(lines[0], "sequenceDiagram", "{text}");
    assert!(participant(1, &client_name), "{text}");
    assert!(participant(2, &relay_node), "{text}");
    assert!(participant(3, &echo_node), "{text}");
    // The client's send was recorded by no ring: its receive is the arrow.
    assert_eq!(
        lines[4], "    P1->>P2: {...}/2 (8 words) [0,1, received]",
        "{text}"
    );
    assert_eq!(lines[5], "    P2->>P3: {...}/2 (8 words) [1,2]", "{text}");
    assert_eq!(
        lines[6], "    P3->>P1: {echoed,...}/2 (3 words) [2,3]",
        "{text}"
    );
    assert_eq!(lines.len(), 7, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
