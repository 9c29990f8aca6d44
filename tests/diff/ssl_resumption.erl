%% TLS session resumption between two processes of one node: a TLS 1.2
%% client that saves its session and offers it again (the second
%% handshake resumes it: same session id), and a TLS 1.3 client that takes
%% the server's session ticket (stateless, then stateful) and uses it
%% (the second handshake is a resumption).
-module(ssl_resumption).
-export([main/0]).

chains() ->
    Opts = [{key, {namedCurve, secp256r1}}, {digest, sha256}],
    public_key:pkix_test_data(#{server_chain => #{root => Opts, intermediates => [], peer => Opts},
                                client_chain => #{root => Opts, intermediates => [], peer => Opts}}).

%% Accepts N connections, each echoing one message then closing.
server(_LSock, 0) -> ok;
server(LSock, N) ->
    {ok, T} = ssl:transport_accept(LSock, 10000),
    case ssl:handshake(T, 10000) of
        {ok, S} ->
            receive {ssl, S, D} -> ssl:send(S, D) after 10000 -> ok end,
            receive {ssl_closed, S} -> ok after 10000 -> ok end;
        {error, _} -> ok
    end,
    server(LSock, N - 1).

listen(Version, Extra, Conns) ->
    #{server_config := SC} = chains(),
    {ok, LSock} = ssl:listen(0, [{versions, [Version]}, {reuseaddr, true}, {active, true} | Extra] ++ SC),
    {ok, {_, Port}} = ssl:sockname(LSock),
    spawn_link(fun() -> server(LSock, Conns) end),
    {LSock, Port}.

client_opts(Version) ->
    #{client_config := CC} = chains(),
    [{versions, [Version]}, {verify, verify_none}, {server_name_indication, disable}, {active, true}
     | [O || {K, _} = O <- CC, K =/= cert, K =/= key, K =/= cacerts]].

ping(C) ->
    ok = ssl:send(C, <<"ping">>),
    receive {ssl, C, D} -> iolist_to_binary(D) after 10000 -> timeout end.

tls12() ->
    {LSock, Port} = listen('tlsv1.2', [], 2),
    Opts = client_opts('tlsv1.2'),
    {ok, C1} = ssl:connect({127,0,0,1}, Port, [{reuse_sessions, save} | Opts], 10000),
    {ok, [{session_id, Id}, {session_data, Data}]} = ssl:connection_information(C1, [session_id, session_data]),
    io:format("tls 1.2 first: ~p, id ~p bytes~n", [ping(C1), byte_size(Id)]),
    ssl:close(C1),
    {ok, C2} = ssl:connect({127,0,0,1}, Port, [{reuse_session, {Id, Data}} | Opts], 10000),
    {ok, [{session_id, Id2}]} = ssl:connection_information(C2, [session_id]),
    io:format("tls 1.2 second: ~p, resumed ~p~n", [ping(C2), Id2 =:= Id]),
    ssl:close(C2),
    ssl:close(LSock).

tls13(Tickets) ->
    {LSock, Port} = listen('tlsv1.3', [{session_tickets, Tickets}], 2),
    Opts = client_opts('tlsv1.3'),
    {ok, C1} = ssl:connect({127,0,0,1}, Port, [{session_tickets, manual} | Opts], 10000),
    Pong1 = ping(C1),
    Ticket = receive {ssl, session_ticket, T} -> T after 10000 -> none end,
    {ok, [{session_resumption, R1}]} = ssl:connection_information(C1, [session_resumption]),
    io:format("tls 1.3 ~p first: ~p, resumed ~p, ticket ~p~n", [Tickets, Pong1, R1, Ticket =/= none]),
    ssl:close(C1),
    {ok, C2} = ssl:connect({127,0,0,1}, Port, [{session_tickets, manual}, {use_ticket, [Ticket]} | Opts], 10000),
    Pong2 = ping(C2),
    {ok, [{session_resumption, R2}]} = ssl:connection_information(C2, [session_resumption]),
    io:format("tls 1.3 ~p second: ~p, resumed ~p~n", [Tickets, Pong2, R2]),
    ssl:close(C2),
    ssl:close(LSock).

main() ->
    logger:set_primary_config(level, error),
    {ok, _} = application:ensure_all_started(ssl),
    tls12(),
    tls13(stateless),
    tls13(stateful),
    ok.
