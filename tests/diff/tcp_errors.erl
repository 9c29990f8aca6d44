-module(tcp_errors).
-export([main/0]).

%% The errors gen_tcp and inet give: refused connections, a port in use,
%% timeouts, bad options, operations on the wrong kind of socket or on a
%% closed one, and a second recv while one waits.

p(X) -> io:format("~p~n", [X]).

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    p(gen_tcp:listen(Port, [{ip, {127,0,0,1}}])),
    p(gen_tcp:accept(L, 20)),
    p(gen_tcp:recv(L, 0)),
    p(gen_tcp:send(L, "x")),
    p(inet:peername(L)),
    p(inet:getopts(L, [nosuchopt])),
    p(inet:setopts(L, [{active, sometimes}])),
    p(inet:setopts(L, [{packet, 3}])),
    p(inet:setopts(L, [nosuchopt])),
    p(catch gen_tcp:listen(0, [{active, 42.0}])),
    p(catch gen_tcp:connect({127,0,0,1}, Port, [{packet, 7}])),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, true}]),
    {ok, S} = gen_tcp:accept(L),
    p(gen_tcp:recv(C, 0)),
    Self = self(),
    spawn(fun() -> Self ! {first, gen_tcp:recv(S, 0, 5000)} end),
    timer:sleep(100),
    p(gen_tcp:recv(S, 0, 10)),
    ok = gen_tcp:send(C, <<"x">>),
    receive {first, R} -> p(R) end,
    ok = gen_tcp:close(L),
    p(gen_tcp:accept(L)),
    p(inet:port(L)),
    p(gen_tcp:connect({127,0,0,1}, Port, [], 500)),
    p(gen_tcp:close(C)),
    p(gen_tcp:close(S)),
    p(inet:getopts(S, [active])),
    p(inet:setopts(S, [{active, true}])),
    p(inet:peername(S)),
    p(gen_tcp:recv(S, 0)),
    p(gen_tcp:controlling_process(S, self())).
