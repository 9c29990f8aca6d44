-module(udp_socket_backend).
-export([main/0]).

%% gen_udp on the socket backend ({inet_backend, socket}: kernel's
%% gen_udp_socket over the socket module): send and recv, the sender's
%% address, active once and a count, a recv timeout, a connected socket
%% and sending after close.

p(X) -> io:format("~p~n", [X]).

-define(B, {inet_backend, socket}).

open() ->
    {ok, S} = gen_udp:open(0, [?B, binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(S),
    {S, Port}.

main() ->
    {A, PA} = open(),
    {B, PB} = open(),
    p(gen_udp:send(A, {127,0,0,1}, PB, <<"hi">>)),
    p(gen_udp:send(A, {127,0,0,1}, PB, [<<"io">>, "list"])),
    {ok, {Ip, Port, D}} = gen_udp:recv(B, 0, 5000),
    p({Ip, Port =:= PA, D}),
    {ok, {_, _, D2}} = gen_udp:recv(B, 0, 5000),
    p(D2),
    p(gen_udp:recv(B, 0, 50)),
    ok = inet:setopts(B, [{active, once}]),
    ok = gen_udp:send(A, {127,0,0,1}, PB, <<"active">>),
    p(receive {udp, B, _, _, M} -> M after 5000 -> none end),
    p(inet:getopts(B, [active])),
    ok = inet:setopts(B, [{active, 2}]),
    [ok = gen_udp:send(A, {127,0,0,1}, PB, X) || X <- [<<"a">>, <<"b">>]],
    p([receive {udp, B, _, _, X} -> X after 5000 -> none end || _ <- [1, 2]]),
    p(receive {udp_passive, B} -> passive after 5000 -> none end),
    ok = inet:setopts(B, [{active, false}]),
    p(gen_udp:connect(A, {127,0,0,1}, PB)),
    p(gen_udp:send(A, <<"connected">>)),
    {ok, {_, _, D3}} = gen_udp:recv(B, 0, 5000),
    p(D3),
    p(gen_udp:close(A)),
    p(gen_udp:send(A, {127,0,0,1}, PB, <<"closed">>)),
    p(gen_udp:close(B)),
    p(done).
