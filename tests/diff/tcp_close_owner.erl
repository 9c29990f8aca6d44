-module(tcp_close_owner).
-export([main/0]).

%% The end of a socket: its owner's exit closes it (the peer sees the
%% end), controlling_process/2's errors, exit_on_close false keeping a
%% half-closed socket for sending, shutdown/2 in each direction, and
%% close/1 with data still unread.

p(X) -> io:format("~p~n", [X]).

%% F's result, or the reason of the error it raised.
reason(F) ->
    try F() catch error:Reason -> Reason end.

main() ->
    Self = self(),
    %% An owner that exits: the peer's active socket gets tcp_closed, a
    %% passive one {error, closed}.
    {C1, S1} = tcp_pair:open([binary], [binary]),
    ok = inet:setopts(C1, [{active, true}]),
    O1 = spawn(fun() -> receive go -> exit(done) end end),
    ok = gen_tcp:controlling_process(S1, O1),
    O1 ! go,
    p(receive {tcp_closed, C1} -> tcp_closed after 30000 -> none end),
    {C2, S2} = tcp_pair:open([binary], [binary]),
    O2 = spawn(fun() -> receive go -> exit(kill) end end),
    ok = gen_tcp:controlling_process(S2, O2),
    O2 ! go,
    p(gen_tcp:recv(C2, 0, 30000)),
    ok = gen_tcp:close(C2),
    %% controlling_process/2 from a process that does not own it, to a
    %% dead process, to something not a pid.
    {C3, S3} = tcp_pair:open([binary], [binary]),
    spawn(fun() -> Self ! {other, gen_tcp:controlling_process(S3, self())} end),
    p(receive {other, R} -> R end),
    Dead = spawn(fun() -> ok end),
    Ref = monitor(process, Dead),
    receive {'DOWN', Ref, process, Dead, _} -> ok end,
    p(gen_tcp:controlling_process(S3, Dead)),
    p(reason(fun() -> gen_tcp:controlling_process(S3, not_a_pid) end)),
    p(gen_tcp:controlling_process(S3, self())),
    p(erlang:port_info(S3, connected) =:= {connected, self()}),
    %% close/1 with data unread: the peer sees the end (reset or not).
    ok = gen_tcp:send(C3, <<"never read">>),
    timer:sleep(50),
    p(gen_tcp:close(S3)),
    p(gen_tcp:recv(C3, 0, 30000)),
    p(gen_tcp:send(C3, <<"after">>)),
    ok = gen_tcp:close(C3),
    %% exit_on_close false and an active socket: tcp_closed, then the
    %% socket still sends to the half-closed peer.
    {C4, S4} = tcp_pair:open([binary, {exit_on_close, false}], [binary]),
    ok = inet:setopts(S4, [{active, true}]),
    ok = gen_tcp:send(C4, <<"last words">>),
    ok = gen_tcp:shutdown(C4, write),
    p(tcp_pair:msgs(S4)),
    p(gen_tcp:send(S4, <<"still here">>)),
    p(gen_tcp:recv(C4, 0, 30000)),
    p(erlang:port_info(S4, connected) =/= undefined),
    p(inet:getopts(S4, [active, exit_on_close])),
    ok = gen_tcp:close(S4),
    p(gen_tcp:recv(C4, 0, 30000)),
    ok = gen_tcp:close(C4),
    %% shutdown(read): the socket still sends; shutdown(read_write) ends
    %% both ways; shutdown of a closed socket.
    {C5, S5} = tcp_pair:open([binary], [binary]),
    p(gen_tcp:shutdown(S5, read)),
    p(gen_tcp:send(S5, <<"out">>)),
    p(gen_tcp:recv(C5, 0, 30000)),
    p(gen_tcp:shutdown(S5, read_write)),
    p(gen_tcp:recv(C5, 0, 30000)),
    ok = gen_tcp:close(S5),
    p(gen_tcp:shutdown(S5, write)),
    p(reason(fun() -> gen_tcp:shutdown(C5, sideways) end)),
    ok = gen_tcp:close(C5),
    %% Closing twice, and recv/send on a closed socket.
    {C6, S6} = tcp_pair:open([binary], [binary]),
    p(gen_tcp:close(S6)),
    p(gen_tcp:close(S6)),
    p(gen_tcp:recv(S6, 0)),
    p(gen_tcp:send(S6, <<"x">>)),
    p(gen_tcp:recv(C6, 0, 30000)),
    ok = gen_tcp:close(C6).
