-module(tcp_socket_backend).
-export([main/0]).

%% gen_tcp on the socket backend ({inet_backend, socket}: kernel's
%% gen_tcp_socket over the socket module): passive and active receives
%% (true, once, a count), packet framing (4, line, http_bin), garbage in
%% an HTTP line and a packet over packet_size, an accept
%% timeout, controlling_process/2, the addresses, options, shutdown, the
%% peer's close and several clients at once.

p(X) -> io:format("~p~n", [X]).

-define(B, {inet_backend, socket}).

listen(Opts) ->
    {ok, L} = gen_tcp:listen(0, [?B, binary, {active, false}, {reuseaddr, true} | Opts]),
    {ok, Port} = inet:port(L),
    {L, Port}.

connect(Port, Opts) ->
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [?B, binary, {active, false} | Opts], 5000),
    C.

msgs() ->
    receive
        {tcp, _, D} -> [{tcp, D} | msgs()];
        {tcp_closed, _} -> [tcp_closed | msgs()];
        {tcp_passive, _} -> [tcp_passive | msgs()];
        {tcp_error, _, R} -> [{tcp_error, R} | msgs()]
    after 200 -> []
    end.

main() ->
    {L, Port} = listen([]),
    p(gen_tcp:accept(L, 50)),
    C = connect(Port, []),
    {ok, S} = gen_tcp:accept(L, 5000),
    {ok, {CA, _}} = inet:sockname(C),
    {ok, {PA, PP}} = inet:peername(C),
    p({CA, PA, PP =:= Port}),
    ok = gen_tcp:send(C, <<"abcdef">>),
    p(gen_tcp:recv(S, 2, 5000)),
    p(gen_tcp:recv(S, 0, 5000)),
    p(gen_tcp:recv(S, 0, 50)),
    %% active true, once and a count.
    ok = inet:setopts(S, [{active, true}]),
    ok = gen_tcp:send(C, <<"one">>),
    timer:sleep(50),
    p(msgs()),
    ok = inet:setopts(S, [{active, once}]),
    ok = gen_tcp:send(C, <<"two">>),
    timer:sleep(50),
    ok = gen_tcp:send(C, <<"three">>),
    p(msgs()),
    ok = inet:setopts(S, [{active, 2}]),
    p(msgs()),
    ok = gen_tcp:send(C, <<"four">>),
    p(msgs()),
    p(inet:getopts(S, [active, mode, packet, nodelay, keepalive])),
    ok = inet:setopts(S, [{nodelay, true}, {keepalive, true}]),
    p(inet:getopts(S, [nodelay, keepalive])),
    %% shutdown and close.
    ok = inet:setopts(S, [{active, false}]),
    p(gen_tcp:shutdown(C, write)),
    p(gen_tcp:recv(S, 0, 5000)),
    p(gen_tcp:send(S, <<"still">>)),
    p(gen_tcp:recv(C, 0, 5000)),
    ok = gen_tcp:close(S),
    p(gen_tcp:recv(C, 0, 5000)),
    ok = gen_tcp:close(C),
    %% packet 4 and line.
    {L4, P4} = listen([{packet, 4}]),
    C4 = connect(P4, [{packet, 4}]),
    {ok, S4} = gen_tcp:accept(L4, 5000),
    ok = gen_tcp:send(C4, <<"framed">>),
    ok = gen_tcp:send(C4, <<"again">>),
    p(gen_tcp:recv(S4, 0, 5000)),
    p(gen_tcp:recv(S4, 0, 5000)),
    [ok = gen_tcp:close(X) || X <- [C4, S4, L4]],
    {LL, PL} = listen([{packet, line}]),
    CL = connect(PL, []),
    {ok, SL} = gen_tcp:accept(LL, 5000),
    ok = gen_tcp:send(CL, <<"first line\nsecond ">>),
    ok = gen_tcp:send(CL, <<"line\n">>),
    p(gen_tcp:recv(SL, 0, 5000)),
    p(gen_tcp:recv(SL, 0, 5000)),
    [ok = gen_tcp:close(X) || X <- [CL, SL, LL]],
    %% HTTP framing.
    {LH, PH} = listen([{packet, http_bin}]),
    CH = connect(PH, []),
    {ok, SH} = gen_tcp:accept(LH, 5000),
    ok = gen_tcp:send(CH, <<"GET /path?q=1 HTTP/1.1\r\nHost: x\r\n\r\n">>),
    p(gen_tcp:recv(SH, 0, 5000)),
    ok = inet:setopts(SH, [{packet, httph_bin}]),
    p(gen_tcp:recv(SH, 0, 5000)),
    p(gen_tcp:recv(SH, 0, 5000)),
    [ok = gen_tcp:close(X) || X <- [CH, SH, LH]],
    %% Garbage where an HTTP line belongs, and a length header over
    %% packet_size.
    {LG, PG} = listen([{packet, http_bin}]),
    CG = connect(PG, []),
    {ok, SG} = gen_tcp:accept(LG, 5000),
    ok = gen_tcp:send(CG, <<"GARBAGE \x01\x02 LINE\r\n">>),
    p(gen_tcp:recv(SG, 0, 5000)),
    ok = inet:setopts(SG, [{packet, 4}, {packet_size, 100}]),
    ok = gen_tcp:send(CG, <<0, 16, 0, 0, "too long">>),
    p(gen_tcp:recv(SG, 0, 5000)),
    ok = gen_tcp:close(CG),
    p(gen_tcp:recv(SG, 0, 5000)),
    [gen_tcp:close(X) || X <- [SG, LG]],
    %% controlling_process and a handed-over active socket.
    {LC, PC} = listen([]),
    CC = connect(PC, []),
    {ok, SC} = gen_tcp:accept(LC, 5000),
    Self = self(),
    Other = spawn(fun() ->
        receive go -> ok end,
        ok = inet:setopts(SC, [{active, once}]),
        Self ! {other, receive {tcp, SC, D} -> D after 5000 -> none end}
    end),
    p(gen_tcp:controlling_process(SC, Other)),
    Other ! go,
    ok = gen_tcp:send(CC, <<"handed over">>),
    p(receive {other, D} -> D after 5000 -> none end),
    [ok = gen_tcp:close(X) || X <- [CC, LC]],
    %% several clients at once, each echoed.
    {LE, PE} = listen([]),
    Server = spawn(fun() -> echo_accept(LE, 4) end),
    Clients = [spawn_client(PE, N) || N <- lists:seq(1, 4)],
    p(lists:sort([receive {echoed, Cl, R} -> R end || Cl <- Clients])),
    exit(Server, kill),
    ok = gen_tcp:close(LE),
    p(done).

echo_accept(_L, 0) -> ok;
echo_accept(L, N) ->
    {ok, S} = gen_tcp:accept(L, 5000),
    Pid = spawn(fun() -> receive go -> echo(S) end end),
    ok = gen_tcp:controlling_process(S, Pid),
    Pid ! go,
    echo_accept(L, N - 1).

echo(S) ->
    case gen_tcp:recv(S, 0, 5000) of
        {ok, D} -> ok = gen_tcp:send(S, D), echo(S);
        {error, _} -> gen_tcp:close(S)
    end.

spawn_client(Port, N) ->
    Self = self(),
    spawn(fun() ->
        C = connect(Port, []),
        Msg = list_to_binary(io_lib:format("client ~p", [N])),
        ok = gen_tcp:send(C, Msg),
        {ok, Back} = gen_tcp:recv(C, byte_size(Msg), 5000),
        gen_tcp:close(C),
        Self ! {echoed, self(), Back}
    end).
