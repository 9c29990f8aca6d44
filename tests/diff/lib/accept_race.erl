%% Shared by diff programs (not a program): pending accepts on one
%% listening socket, on the gen_tcp backend that Backend's options
%% choose. An acceptor that dies gives up its place (the next connection
%% reaches the next acceptor, as glisten's acceptor pool relies on),
%% several acceptors get one connection each, an accept that timed out
%% leaves the next one free, and closing the listener answers every
%% waiting acceptor.
-module(accept_race).
-export([run/1]).

p(X) -> io:format("~p~n", [X]).

listen() ->
    {ok, L} = gen_tcp:listen(0, backend() ++ [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    {L, Port}.

connect(Port) ->
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, backend() ++ [binary, {active, false}]),
    C.

%% An acceptor process sending its accept's result to the caller.
acceptor(L, Timeout) ->
    Self = self(),
    spawn(fun() ->
        R = gen_tcp:accept(L, Timeout),
        Self ! {accepted, self(), shape(R)},
        %% Keeps the socket open until told to stop.
        receive stop -> ok end
    end).

shape({ok, S}) when is_port(S) -> ok_socket;
shape({ok, {'$inet', gen_tcp_socket, _}}) -> ok_socket;
shape(Other) -> Other.

result(Pid) ->
    receive {accepted, Pid, R} -> R after 30000 -> no_answer end.

%% Waits until Pid waits in accept (prim_inet's receive).
waiting(Pid) ->
    case process_info(Pid, status) of
        {status, waiting} -> ok;
        _ -> timer:sleep(5), waiting(Pid)
    end.

killed_acceptor() ->
    {L, Port} = listen(),
    A = acceptor(L, infinity),
    waiting(A),
    Ref = monitor(process, A),
    exit(A, kill),
    receive {'DOWN', Ref, process, A, R} -> p({first_acceptor, R}) end,
    timer:sleep(50),
    B = acceptor(L, 10000),
    waiting(B),
    C = connect(Port),
    p({next_acceptor, result(B)}),
    %% And once more, with the dead one's successor killed too.
    D = acceptor(L, infinity),
    waiting(D),
    Ref2 = monitor(process, D),
    exit(D, kill),
    receive {'DOWN', Ref2, process, D, _} -> ok end,
    timer:sleep(50),
    C2 = connect(Port),
    {ok, S} = gen_tcp:accept(L, 10000),
    p({own_accept_after_dead, shape({ok, S})}),
    B ! stop,
    [gen_tcp:close(X) || X <- [C, C2, S, L]].

pool() ->
    {L, Port} = listen(),
    As = [acceptor(L, 10000) || _ <- [1, 2, 3]],
    [waiting(A) || A <- As],
    Cs = [connect(Port) || _ <- [1, 2, 3]],
    p({pool, [result(A) || A <- As]}),
    [A ! stop || A <- As],
    [gen_tcp:close(X) || X <- [L | Cs]].

timeout_then_accept() ->
    {L, Port} = listen(),
    p({timed_out, gen_tcp:accept(L, 50)}),
    p({timed_out_zero, gen_tcp:accept(L, 0)}),
    A = acceptor(L, 10000),
    waiting(A),
    C = connect(Port),
    p({later_accept, result(A)}),
    %% A connection waiting in the backlog is taken by a zero timeout.
    C2 = connect(Port),
    timer:sleep(50),
    %% (On the socket backend erl answers timeout here.)
    R0 = gen_tcp:accept(L, 0),
    p({backlog_zero_timeout, shape(R0)}),
    A ! stop,
    [gen_tcp:close(X) || X <- [C, C2] ++ [S || {ok, S} <- [R0]] ++ [L]].

close_pending() ->
    {L, _Port} = listen(),
    As = [acceptor(L, infinity) || _ <- [1, 2]],
    [waiting(A) || A <- As],
    ok = gen_tcp:close(L),
    p({closed_listener, [result(A) || A <- As]}),
    p({accept_after_close, gen_tcp:accept(L, 0)}),
    [A ! stop || A <- As].

%% The gen_tcp options that choose the backend.
backend() -> get(accept_race_backend).

run(Backend) ->
    put(accept_race_backend, Backend),
    killed_acceptor(),
    pool(),
    timeout_then_accept(),
    close_pending().
