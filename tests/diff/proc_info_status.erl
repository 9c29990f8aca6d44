-module(proc_info_status).
-export([main/0]).

%% process_info(P, status) of other processes: waiting in a receive,
%% busy (running on another scheduler or queued to run: erl says either),
%% just spawned, and dead.
main() ->
    Self = self(),
    Waiter = spawn(fun() -> Self ! ready, receive stop -> ok end end),
    receive ready -> ok end,
    %% Polled up to 30000 times (30 s or more): it waits at once.
    io:format("waiting: ~p~n", [until(Waiter, waiting, 30000)]),
    Busy = spawn(fun() -> spin(0) end),
    Fresh = spawn(fun() -> ok end),
    io:format("fresh: ~p~n", [live_status(process_info(Fresh, status))]),
    io:format("busy: ~p~n", [busy(Busy, 20)]),
    exit(Busy, kill),
    Waiter ! stop,
    Ref = monitor(process, Waiter),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    io:format("dead: ~p~n", [process_info(Waiter, status)]),
    io:format("self: ~p~n", [process_info(self(), status)]).

%% A process that has not ended yet is runnable or running; one that ran
%% to its end already is gone.
live_status({status, S}) -> lists:member(S, [runnable, running]);
live_status(undefined) -> true.

%% A busy process is never seen waiting.
busy(_, 0) -> true;
busy(P, N) ->
    {status, S} = process_info(P, status),
    case lists:member(S, [runnable, running]) of
        true -> erlang:yield(), busy(P, N - 1);
        false -> {seen, S}
    end.

until(_, _, 0) -> timeout;
until(P, Want, N) ->
    case process_info(P, status) of
        {status, Want} -> Want;
        _ -> timer:sleep(1), until(P, Want, N - 1)
    end.

spin(N) -> spin(N + 1).
