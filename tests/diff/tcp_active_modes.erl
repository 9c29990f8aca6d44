-module(tcp_active_modes).
-export([main/0]).

%% The active modes: true delivers every packet as {tcp, S, Data}; once
%% one packet, then passive; N that many, then {tcp_passive, S}; and the
%% end of the connection as {tcp_closed, S}, after which the socket is
%% gone.

p(X) -> io:format("~p~n", [X]).

%% What S delivered, in order, once the sender is done: every drain below
%% gets something, so the first message is waited for however long it
%% takes; tcp_passive and tcp_closed end what can come; else 300 ms of
%% nothing (the rest of one read comes at once).
drain(S) ->
    receive
        M when element(2, M) =:= S -> delivered(S, M)
    end.

delivered(S, {tcp, S, D}) -> [{tcp, D} | more(S)];
delivered(S, {tcp_passive, S}) -> [tcp_passive];
delivered(S, {tcp_closed, S}) -> [tcp_closed].

more(S) ->
    receive
        M when element(2, M) =:= S -> delivered(S, M)
    after 300 -> []
    end.

main() ->
    {C, S} = tcp_pair:open([binary, {packet, 2}], [binary, {packet, 2}]),
    [ok = gen_tcp:send(C, [I]) || I <- "abcde"],
    p(inet:setopts(S, [{active, true}])),
    p(drain(S)),
    p(inet:setopts(S, [{active, once}])),
    ok = gen_tcp:send(C, "1"), ok = gen_tcp:send(C, "2"),
    p(drain(S)),
    p(inet:getopts(S, [active])),
    p(gen_tcp:recv(S, 0)),
    p(inet:setopts(S, [{active, 2}])),
    p(inet:getopts(S, [active])),
    [ok = gen_tcp:send(C, [I]) || I <- "xyz"],
    p(drain(S)),
    p(inet:getopts(S, [active])),
    p(gen_tcp:recv(S, 0)),
    p(inet:setopts(S, [{active, 3}])),
    p(inet:setopts(S, [{active, -1}])),
    p(inet:getopts(S, [active])),
    p(inet:setopts(S, [{active, -5}])),
    p(drain(S)),
    p(inet:getopts(S, [active])),
    p(inet:setopts(S, [{active, 40000}])),
    p(inet:setopts(S, [{active, 30000}])),
    p(inet:setopts(S, [{active, 3000}])),
    p(inet:getopts(S, [active])),
    p(inet:setopts(S, [{active, false}])),
    p(inet:setopts(S, [{active, often}])),
    ok = gen_tcp:send(C, "last"),
    p(inet:setopts(S, [{active, true}])),
    ok = gen_tcp:close(C),
    p(drain(S)),
    p(erlang:port_info(S, name)),
    p(gen_tcp:send(S, "x")),
    p(gen_tcp:recv(S, 0)).
