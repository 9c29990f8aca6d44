%% erlang:trace/3 with send and 'receive' on one process, the caller as
%% tracer: the trace messages, pids named, in the order they arrive.
-module(trace_msg_send_receive).
-export([main/0]).

main() ->
    Self = self(),
    P = spawn(fun() -> worker(Self) end),
    1 = erlang:trace(P, true, [send, 'receive']),
    P ! {ping, 1},
    receive {pong, 1} -> ok end,
    P ! stop,
    receive done -> ok end,
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    trace_names:print(#{P => p, Self => main}),
    %% Turning the flags off stops the messages.
    Q = spawn(fun() -> worker(Self) end),
    1 = erlang:trace(Q, true, [send]),
    1 = erlang:trace(Q, false, [send]),
    Q ! {ping, 2},
    receive {pong, 2} -> ok end,
    Q ! stop,
    receive done -> ok end,
    io:format("after off: ~p~n", [flush()]),
    io:format("~p~n", [trace_names:name(catch erlang:trace(Q, true, [bogus]), #{Q => q})]),
    io:format("~p~n", [catch erlang:trace(nonsense, true, [send])]).

worker(Parent) ->
    receive {ping, N} -> Parent ! {pong, N} end,
    receive stop -> Parent ! done end.

flush() ->
    receive M -> [M | flush()] after 100 -> [] end.
