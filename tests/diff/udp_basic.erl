-module(udp_basic).
-export([main/0]).

%% gen_udp as a program uses it: open with options, send/3 and send/4 with
%% {Address, Port}, recv with and without timeouts, every active mode and
%% the udp_passive message, connected sockets, errors, close and the death
%% of the owner, over IPv4 and IPv6.

p(X) -> io:format("~p~n", [X]).

flush() ->
    receive M -> [M | flush()] after 200 -> [] end.

strip(L) -> [strip1(M) || M <- L].
strip1({udp, _S, IP, _Port, D}) -> {udp, s, IP, port, D};
strip1({udp_passive, _}) -> udp_passive;
strip1(X) -> X.

main() ->
    {ok, A} = gen_udp:open(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, B} = gen_udp:open(0, [{active, false}, {ip, loopback}]),
    {ok, PA} = inet:port(A),
    {ok, PB} = inet:port(B),
    p(inet:getopts(A, [active, mode, reuseaddr, broadcast, header])),
    p(inet:sockname(A) =:= {ok, {{127,0,0,1}, PA}}),
    p(gen_udp:send(A, {127,0,0,1}, PB, <<"hello">>)),
    p(gen_udp:send(A, {{127,0,0,1}, PB}, "list data")),
    p(gen_udp:send(A, {127,0,0,1}, PB, [<<"io">>, $l, "ist"])),
    {ok, {_, PA1, D1}} = gen_udp:recv(B, 0),
    p({PA1 =:= PA, D1}),
    {ok, {IP2, _, D2}} = gen_udp:recv(B, 0, 1000),
    p({IP2, D2}),
    {ok, {_, _, D3}} = gen_udp:recv(B, 100),
    p(D3),
    p(gen_udp:recv(B, 0, 50)),
    p(gen_udp:recv(B, 0, 0)),
    ok = gen_udp:send(B, {127,0,0,1}, PA, "to a"),
    {ok, {_, _, D4}} = gen_udp:recv(A, 0),
    p(D4),
    %% Empty datagrams.
    ok = gen_udp:send(B, {127,0,0,1}, PA, <<>>),
    p(gen_udp:recv(A, 0, 1000) =:= {ok, {{127,0,0,1}, PB, <<>>}}),
    %% Active modes.
    ok = inet:setopts(A, [{active, true}]),
    [ok = gen_udp:send(B, {127,0,0,1}, PA, [N]) || N <- "abc"],
    p(strip(flush())),
    p(gen_udp:recv(A, 0, 10)),
    ok = inet:setopts(A, [{active, once}]),
    [ok = gen_udp:send(B, {127,0,0,1}, PA, [N]) || N <- "de"],
    p(strip(flush())),
    p(inet:getopts(A, [active])),
    ok = inet:setopts(A, [{active, 2}]),
    p(strip(flush())),
    [ok = gen_udp:send(B, {127,0,0,1}, PA, [N]) || N <- "fgh"],
    p(strip(flush())),
    p(inet:getopts(A, [active])),
    ok = inet:setopts(A, [{active, false}]),
    p(gen_udp:recv(A, 0, 1000) =:= {ok, {{127,0,0,1}, PB, <<"g">>}}),
    p(gen_udp:recv(A, 0, 1000) =:= {ok, {{127,0,0,1}, PB, <<"h">>}}),
    %% Header mode.
    ok = inet:setopts(A, [{header, 2}]),
    ok = gen_udp:send(B, {127,0,0,1}, PA, "xyz"),
    {ok, {_, _, D5}} = gen_udp:recv(A, 0),
    p(D5),
    ok = inet:setopts(A, [{header, 0}, list]),
    ok = gen_udp:send(B, {127,0,0,1}, PA, "as list"),
    {ok, {_, _, D6}} = gen_udp:recv(A, 0),
    p(D6),
    %% Connected sockets.
    {ok, C} = gen_udp:open(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, PC} = inet:port(C),
    p(gen_udp:connect(C, {127,0,0,1}, PB)),
    p(inet:peername(C) =:= {ok, {{127,0,0,1}, PB}}),
    p(gen_udp:send(C, <<"connected">>)),
    {ok, {_, PC1, D7}} = gen_udp:recv(B, 0, 1000),
    p({PC1 =:= PC, D7}),
    p(inet:peername(B)),
    %% Options.
    {ok, R1} = gen_udp:open(0, [{reuseaddr, true}, {broadcast, true},
                                {recbuf, 65536}, {sndbuf, 65536}, {ip, {127,0,0,1}}]),
    p(inet:getopts(R1, [reuseaddr, broadcast])),
    {ok, [{recbuf, RB}, {sndbuf, SB}]} = inet:getopts(R1, [recbuf, sndbuf]),
    p({RB >= 65536, SB >= 65536}),
    {ok, PR} = inet:port(R1),
    {ok, R2} = gen_udp:open(PR, [{reuseaddr, true}, {ip, {127,0,0,1}}]),
    p(inet:port(R2) =:= {ok, PR}),
    gen_udp:close(R2),
    gen_udp:close(R1),
    %% Errors.
    p(gen_udp:open(PA, [{ip, {127,0,0,1}}])),
    p(catch gen_udp:open(0, [{active, sometimes}])),
    %% OTP 25 refuses port -1; 27 and 29 open a socket.
    p(case catch gen_udp:open(-1) of
          {ok, Neg} when is_port(Neg) -> gen_udp:close(Neg), {ok, port};
          NegOther -> NegOther
      end),
    p(gen_udp:send(A, {127,0,0,1}, 0, "x")),
    p(case catch gen_udp:send(A, {127,0,0,1}, 70000, "x") of
          {'EXIT', {Reason, _}} -> Reason;
          Other -> Other
      end),
    p(catch gen_udp:send(A, nosuchhost_xyz_invalid, 1, "x")),
    p(gen_udp:send(A, {127,0,0,1}, PB, binary:copy(<<"x">>, 70000))),
    ok = inet:setopts(A, [{active, true}]),
    p(gen_udp:recv(A, 0, 10)),
    p(gen_udp:close(A)),
    p(gen_udp:close(A)),
    p(gen_udp:send(A, {127,0,0,1}, PB, "x")),
    p(gen_udp:recv(A, 0)),
    p(inet:port(A)),
    p(inet:getopts(A, [active])),
    %% Owner death closes the socket.
    Self = self(),
    Pid = spawn(fun() ->
                        {ok, S} = gen_udp:open(0, [{ip, {127,0,0,1}}]),
                        Self ! {sock, S},
                        receive stop -> ok end
                end),
    S = receive {sock, S0} -> S0 end,
    Ref = monitor(process, Pid),
    Pid ! stop,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    timer:sleep(50),
    p(erlang:port_info(S)),
    p(gen_udp:send(S, {127,0,0,1}, PB, "x")),
    %% Controlling process: messages follow the socket.
    {ok, T} = gen_udp:open(0, [binary, {active, true}, {ip, {127,0,0,1}}]),
    {ok, PT} = inet:port(T),
    Child = spawn(fun() -> receive go -> Self ! {child, strip(flush())} end end),
    p(gen_udp:controlling_process(T, Child)),
    ok = gen_udp:send(B, {127,0,0,1}, PT, "owned"),
    timer:sleep(100),
    Child ! go,
    receive {child, Ms} -> p(Ms) end,
    %% IPv6.
    case gen_udp:open(0, [inet6, binary, {active, false}, {ip, {0,0,0,0,0,0,0,1}}]) of
        {ok, V1} ->
            {ok, V2} = gen_udp:open(0, [inet6, binary, {active, true}, {ip, loopback}]),
            {ok, PV2} = inet:port(V2),
            {ok, PV1} = inet:port(V1),
            p(gen_udp:send(V1, {0,0,0,0,0,0,0,1}, PV2, <<"six">>)),
            receive {udp, V2, IP6, PV1, D6b} -> p({IP6, D6b}) after 2000 -> p(timeout) end,
            p(gen_udp:send(V2, {{0,0,0,0,0,0,0,1}, PV1}, "back")),
            {ok, {IP6b, PV2b, D6c}} = gen_udp:recv(V1, 0, 2000),
            p({IP6b, PV2b =:= PV2, D6c}),
            p(inet:sockname(V1) =:= {ok, {{0,0,0,0,0,0,0,1}, PV1}}),
            p(gen_udp:send(V1, {127,0,0,1}, PV2, "v4 on v6")),
            gen_udp:close(V1),
            gen_udp:close(V2);
        Error ->
            p({no_ipv6, Error})
    end,
    gen_udp:close(B),
    gen_udp:close(C),
    gen_udp:close(T),
    ok.
