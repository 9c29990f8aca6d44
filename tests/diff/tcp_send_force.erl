%% port_command/3's force option on an inet socket (what the
%% distribution's ticks send: inet_tcp:send(S, [], [force])): taken, the
%% empty packet framed and counted as a send.
-module(tcp_send_force).
-export([main/0]).

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}]),
    {ok, Port} = inet:port(L),
    {ok, C} = gen_tcp:connect({127, 0, 0, 1}, Port, [binary, {packet, 4}]),
    io:format("~p~n", [inet:getstat(C, [recv_cnt, send_cnt, send_pend])]),
    io:format("~p~n", [inet_tcp:send(C, [], [force])]),
    io:format("~p~n", [inet_tcp:send(C, <<"x">>, [force, nosuspend])]),
    io:format("~p~n", [inet:getstat(C, [send_cnt, send_pend])]),
    {ok, S} = gen_tcp:accept(L),
    io:format("~p~n", [gen_tcp:recv(S, 0, 5000)]),
    io:format("~p~n", [gen_tcp:recv(S, 0, 5000)]),
    ok = gen_tcp:close(C),
    ok = gen_tcp:close(S),
    ok = gen_tcp:close(L).
