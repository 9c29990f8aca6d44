%% Shared by diff programs (not a program): a worker process to trace,
%% a collector to trace it to, and the calls that drive them.
-module(trace_worker).
-export([collector/0, events/1, worker/1, worker/2, ask/2]).

%% A process that keeps every message it gets (trace messages) until
%% asked for them with events/1.
collector() ->
    spawn(fun() -> collect([]) end).

%% The messages collector T got since it was last asked, in order.
events(T) ->
    T ! {events, self()},
    receive {events, Es} -> Es end.

%% A worker answering `{work, N}` with `{done, N}` to Parent, until `stop`.
worker(Parent) ->
    worker(Parent, fun(N) -> N end).

%% A worker answering `{work, N}` with `{done, Work(N)}` to Parent.
worker(Parent, Work) ->
    spawn(fun() -> work(Parent, Work) end).

%% Has worker P do N, then waits until every trace message its work
%% caused is delivered.
ask(P, N) ->
    P ! {work, N},
    receive {done, _} -> ok end,
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end.

collect(Acc) ->
    receive
        {events, From} -> From ! {events, lists:reverse(Acc)}, collect([]);
        E -> collect([E | Acc])
    end.

work(Parent, Work) ->
    receive
        {work, N} -> Parent ! {done, Work(N)}, work(Parent, Work);
        stop -> ok
    end.
