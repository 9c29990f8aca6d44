-module(tcp_passive_basic).
-export([main/0]).

%% gen_tcp over loopback in passive mode: listen on a port the OS picks,
%% connect, accept, send and recv both ways, a recv that times out, and
%% what each side sees once the other closes.

p(X) -> io:format("~p~n", [X]).

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    p(is_integer(Port) andalso Port > 0),
    p(inet:sockname(L) =:= {ok, {{127,0,0,1}, Port}}),
    p(erlang:port_info(L, name)),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(L),
    {ok, {CIp, CPort}} = inet:sockname(C),
    p({CIp, inet:peername(S) =:= {ok, {CIp, CPort}}}),
    p(inet:peername(C) =:= {ok, {{127,0,0,1}, Port}}),
    p(gen_tcp:send(C, <<"hello">>)),
    p(gen_tcp:recv(S, 0)),
    p(gen_tcp:send(S, [<<"wor">>, "ld", $!])),
    p(gen_tcp:recv(C, 6)),
    p(gen_tcp:recv(S, 0, 30)),
    ok = gen_tcp:send(C, <<"abcdef">>),
    p(gen_tcp:recv(S, 2)),
    p(gen_tcp:recv(S, 4)),
    p(gen_tcp:close(C)),
    p(gen_tcp:recv(S, 0)),
    p(gen_tcp:recv(S, 0)),
    p(gen_tcp:send(S, <<"x">>)),
    p(erlang:port_info(S, name)),
    p(gen_tcp:close(S)),
    p(erlang:port_info(S, name)),
    p(gen_tcp:send(S, <<"x">>)),
    p(gen_tcp:close(L)),
    p(gen_tcp:accept(L)).
