-module(tcp_ipv6).
-export([main/0]).

%% gen_tcp over IPv6 loopback: listen with inet6 or {ip, ::1}, connect
%% by address and by family, the addresses inet gives, data both ways.

p(X) -> io:format("~p~n", [X]).

main() ->
    Loop = {0,0,0,0,0,0,0,1},
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, Loop}]),
    {ok, Port} = inet:port(L),
    p(inet:sockname(L) =:= {ok, {Loop, Port}}),
    {ok, C} = gen_tcp:connect(Loop, Port, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(L),
    {ok, {CIp, CPort}} = inet:sockname(C),
    p({CIp, inet:peername(S) =:= {ok, {CIp, CPort}}}),
    p(inet:peername(C) =:= {ok, {Loop, Port}}),
    ok = gen_tcp:send(C, <<"over six">>),
    p(gen_tcp:recv(S, 0, 30000)),
    ok = inet:setopts(S, [{active, once}]),
    ok = gen_tcp:send(C, <<"active">>),
    p(tcp_pair:msgs(S)),
    p(inet:getopts(S, [nodelay, keepalive])),
    [gen_tcp:close(X) || X <- [C, S, L]],
    %% inet6 and a listener on any address; a client naming the family.
    {ok, L6} = gen_tcp:listen(0, [inet6, binary, {active, false}]),
    {ok, P6} = inet:port(L6),
    p(element(1, element(2, inet:sockname(L6)))),
    {ok, C6} = gen_tcp:connect("::1", P6, [inet6, binary, {active, false}]),
    {ok, S6} = gen_tcp:accept(L6),
    ok = gen_tcp:send(S6, <<"back">>),
    p(gen_tcp:recv(C6, 0, 30000)),
    %% An IPv4 address on an inet6 socket is an error.
    p(gen_tcp:connect({127,0,0,1}, P6, [inet6, {active, false}])),
    [gen_tcp:close(X) || X <- [C6, S6, L6]].
