-module(tcp_recv_modes).
-export([main/0]).

%% Passive reads by length and with timeouts, recv on an active socket,
%% and switching between active modes with data already queued.

p(X) -> io:format("~p~n", [X]).

main() ->
    {C, S} = tcp_pair:open([binary], [binary]),
    ok = gen_tcp:send(C, <<"0123456789">>),
    p(gen_tcp:recv(S, 4, 30000)),
    p(gen_tcp:recv(S, 6, 30000)),
    p(gen_tcp:recv(S, 1, 20)),
    p(gen_tcp:recv(S, 0, 0)),
    %% A length that comes in two sends.
    Self = self(),
    spawn(fun() -> Self ! {got, gen_tcp:recv(S, 8, 30000)} end),
    ok = gen_tcp:send(C, <<"abcd">>),
    timer:sleep(50),
    ok = gen_tcp:send(C, <<"efgh">>),
    p(receive {got, G} -> G end),
    %% recv on an active socket, of each mode.
    [begin
         ok = inet:setopts(S, [{active, A}]),
         p({A, gen_tcp:recv(S, 0, 0)})
     end || A <- [true, once, 5]],
    ok = inet:setopts(S, [{active, false}]),
    %% Data queued while passive comes as messages once active, in order.
    ok = gen_tcp:send(C, <<"queued">>),
    timer:sleep(50),
    ok = inet:setopts(S, [{active, once}]),
    p(tcp_pair:msgs(S)),
    ok = gen_tcp:send(C, <<"more">>),
    timer:sleep(50),
    p(tcp_pair:msgs(S)),
    p(gen_tcp:recv(S, 0, 30000)),
    %% {active, N} with packets framed: N packets, then tcp_passive.
    {C2, S2} = tcp_pair:open([binary, {packet, 1}], [binary, {packet, 1}]),
    [ok = gen_tcp:send(C2, [I]) || I <- "abcd"],
    timer:sleep(50),
    ok = inet:setopts(S2, [{active, 3}]),
    p(tcp_pair:msgs(S2)),
    p(inet:getopts(S2, [active])),
    p(gen_tcp:recv(S2, 0, 30000)),
    %% A length with a framed packet type is einval.
    p(gen_tcp:recv(S2, 3, 0)),
    %% Passive again after active true: what was not yet delivered stays.
    ok = inet:setopts(S2, [{active, true}]),
    ok = inet:setopts(S2, [{active, false}]),
    ok = gen_tcp:send(C2, "late"),
    p(gen_tcp:recv(S2, 0, 30000)),
    %% A list socket returns lists; a recv after the peer closed.
    {C3, S3} = tcp_pair:open([list], [binary]),
    ok = gen_tcp:send(C3, <<"as a list">>),
    p(gen_tcp:recv(S3, 0, 30000)),
    ok = gen_tcp:close(C3),
    p(gen_tcp:recv(S3, 0, 30000)),
    [gen_tcp:close(X) || X <- [C, S, C2, S2, S3]].
