-module(local_sockets).
-export([main/0]).

%% Unix-domain sockets through gen_tcp and gen_udp with {local, Path}
%% addresses: listen, connect, accept, data both ways, sockname and
%% peername, the errors of a path in use or missing, and datagrams
%% between two bound paths.

p(X) -> io:format("~p~n", [X]).

path(Name) ->
    P = "/tmp/beamr_local_" ++ os:getpid() ++ "_" ++ Name,
    file:delete(P),
    P.

main() ->
    Path = path("stream"),
    {ok, L} = gen_tcp:listen(0, [{ifaddr, {local, Path}}, binary, {active, false}]),
    p(inet:sockname(L) =:= {ok, {local, list_to_binary(Path)}}),
    p(filelib:is_file(Path)),
    {ok, C} = gen_tcp:connect({local, Path}, 0, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(L, 2000),
    p(inet:peername(S)),
    p(inet:sockname(C)),
    p(inet:peername(C) =:= {ok, {local, list_to_binary(Path)}}),
    ok = gen_tcp:send(C, <<"over unix">>),
    p(gen_tcp:recv(S, 0, 2000)),
    ok = gen_tcp:send(S, "back"),
    p(gen_tcp:recv(C, 0, 2000)),
    ok = inet:setopts(S, [{active, once}, {packet, line}]),
    ok = gen_tcp:send(C, "a line\nrest"),
    p(receive {tcp, S, D} -> D after 2000 -> timeout end),
    ok = gen_tcp:close(C),
    ok = inet:setopts(S, [{active, true}]),
    p(receive {tcp, S, D2} -> D2 after 2000 -> timeout end),
    p(receive {tcp_closed, S} -> closed after 2000 -> timeout end),
    p(gen_tcp:listen(0, [{ifaddr, {local, Path}}])),
    p(gen_tcp:connect({local, path("missing")}, 0, [], 1000)),
    gen_tcp:close(L),
    file:delete(Path),
    %% Datagrams.
    PA = path("a"), PB = path("b"),
    {ok, A} = gen_udp:open(0, [{ifaddr, {local, PA}}, {active, false}]),
    {ok, B} = gen_udp:open(0, [{ifaddr, {local, PB}}, binary, {active, true}]),
    p(inet:sockname(A) =:= {ok, {local, list_to_binary(PA)}}),
    p(gen_udp:send(A, {local, PB}, 0, <<"dgram">>)),
    p(receive {udp, B, From, Port, D3} -> {From =:= {local, list_to_binary(PA)}, Port, D3}
      after 2000 -> timeout end),
    p(gen_udp:send(B, {local, PA}, 0, "reply")),
    {ok, {From2, Port2, D4}} = gen_udp:recv(A, 0, 2000),
    p({From2 =:= {local, list_to_binary(PB)}, Port2, D4}),
    p(gen_udp:send(A, {local, path("nobody")}, 0, "x")),
    gen_udp:close(A), gen_udp:close(B),
    file:delete(PA), file:delete(PB),
    ok.
