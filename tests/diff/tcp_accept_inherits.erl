-module(tcp_accept_inherits).
-export([main/0]).

%% An accepted socket takes the listening socket's options (mode, packet,
%% header, active): data the client sent before the accept reaches the
%% new owner as messages at once.

p(X) -> io:format("~p~n", [X]).

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {packet, 2}, {active, true}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [list, {packet, 2}, {active, false}]),
    ok = gen_tcp:send(C, "sent before accept"),
    ok = gen_tcp:send(C, "and another"),
    timer:sleep(50),
    {ok, S} = gen_tcp:accept(L),
    p(inet:getopts(S, [mode, packet, active, header])),
    %% The timeouts only end a run where the data never comes (none is then
    %% printed): long, for a loaded machine.
    p([receive {tcp, S, D} -> D after 30000 -> none end || _ <- [1, 2]]),
    ok = gen_tcp:send(S, <<"back">>),
    p(gen_tcp:recv(C, 0)),
    ok = inet:setopts(L, [{active, once}, list]),
    {ok, C2} = gen_tcp:connect({127,0,0,1}, Port, [binary, {packet, 2}, {active, false}]),
    {ok, S2} = gen_tcp:accept(L),
    ok = gen_tcp:send(C2, <<"one">>),
    ok = gen_tcp:send(C2, <<"two">>),
    p(receive {tcp, S2, D1} -> D1 after 30000 -> none end),
    p(inet:getopts(S2, [active, mode])),
    p(gen_tcp:recv(S2, 0)).
