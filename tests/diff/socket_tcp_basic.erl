-module(socket_tcp_basic).
-export([main/0]).

%% The socket module over TCP on loopback: open, bind, listen, connect,
%% accept, send and recv (a length, length 0, timeouts), shutdown, close,
%% the peer's end and its reset, and the addresses each side reports.

p(X) -> io:format("~p~n", [X]).

%% An address with its port left out (ports differ from run to run).
shape(#{port := Port} = A) when is_integer(Port), Port > 0 -> A#{port := port};
shape(A) -> A.

main() ->
    {ok, L} = socket:open(inet, stream, tcp),
    p(is_reference(element(2, L))),
    p(socket:bind(L, #{family => inet, addr => loopback, port => 0})),
    p(socket:listen(L)),
    {ok, LAddr} = socket:sockname(L),
    p(shape(LAddr)),
    p(socket:peername(L)),
    Self = self(),
    Client = spawn(fun() ->
        {ok, C} = socket:open(inet, stream, tcp),
        Self ! {connect, socket:connect(C, LAddr)},
        {ok, Peer} = socket:peername(C),
        Self ! {peer, shape(Peer)},
        ok = socket:send(C, <<"hello world">>),
        ok = socket:send(C, [<<"io">>, "list", [$!]]),
        {ok, Back} = socket:recv(C, 4),
        Self ! {back, Back},
        receive shut -> ok end,
        Self ! {shutdown, socket:shutdown(C, write)},
        Self ! {after_shutdown, socket:recv(C, 0, 5000)},
        Self ! {close, socket:close(C)},
        Self ! {close_again, socket:close(C)},
        Self ! {send_closed, socket:send(C, <<"x">>)}
    end),
    p(receive {connect, R} -> R end),
    p(receive {peer, Pe} -> Pe end),
    {ok, A} = socket:accept(L),
    {ok, AName} = socket:sockname(A),
    p(shape(AName)),
    p(socket:recv(A, 5)),
    p(socket:recv(A, 6)),
    p(socket:recv(A, 7, 5000)),
    p(socket:recv(A, 0, 0)),
    p(socket:recv(A, 3, 50)),
    p(socket:send(A, <<"back">>)),
    p(receive {back, B} -> B end),
    receive after 20 -> ok end,
    Client ! shut,
    p(socket:recv(A, 0, 5000)),
    p(socket:send(A, <<"bye">>)),
    p(receive {shutdown, S} -> S end),
    p(receive {after_shutdown, S2} -> S2 end),
    p(receive {close, S3} -> S3 end),
    p(receive {close_again, S4} -> S4 end),
    p(receive {send_closed, S5} -> S5 end),
    p(socket:close(A)),
    p(socket:close(L)),
    p(socket:accept(L, 10)),
    p(socket:sockname(L)),
    reset().

%% A peer that closes with linger 0 resets the connection: a recv then
%% sees econnreset (also one waiting in another process), a send epipe.
reset() ->
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L),
    {ok, Addr} = socket:sockname(L),
    {ok, C} = socket:open(inet, stream, tcp),
    ok = socket:connect(C, Addr),
    {ok, S} = socket:accept(L),
    ok = socket:send(S, <<"unread">>),
    timer:sleep(50),
    p(socket:setopt(C, {socket, linger}, #{onoff => true, linger => 0})),
    p(socket:close(C)),
    timer:sleep(50),
    p(socket:recv(S, 0, 1000)),
    p(socket:send(S, <<"x">>)),
    {ok, C2} = socket:open(inet, stream, tcp),
    ok = socket:connect(C2, Addr),
    {ok, S2} = socket:accept(L),
    Self = self(),
    spawn(fun() -> Self ! {waited, socket:recv(S2, 0, 5000)} end),
    timer:sleep(100),
    ok = socket:setopt(C2, {socket, linger}, #{onoff => true, linger => 0}),
    ok = socket:send(S2, <<"unread">>),
    timer:sleep(50),
    ok = socket:close(C2),
    p(receive {waited, R} -> R after 5000 -> none end),
    [ok = socket:close(X) || X <- [S, S2, L]].
