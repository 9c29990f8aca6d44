%% A server with an idle timeout that each message restarts, and a
%% process collecting messages until a quiet period.
-module(proc_idle_timeout).
-export([main/0]).

main() ->
    Self = self(),
    %% The server starts its idle timeout once all five are queued, so a
    %% loaded machine's pause between two sends cannot end it early.
    S = spawn(fun() -> receive go -> server(Self, 0) end end),
    [S ! {work, N} || N <- lists:seq(1, 5)],
    S ! go,
    receive {idle, Count} -> io:format("idle after ~p messages~n", [Count]) end,
    %% Collect until no message for 200 ms, once the sender is done (its
    %% messages come before its 'DOWN').
    {P, Ref} = spawn_monitor(fun() -> [Self ! {item, N} || N <- lists:seq(1, 10)] end),
    receive {'DOWN', Ref, process, P, normal} -> ok end,
    Items = collect([]),
    io:format("collected ~p from ~p~n", [Items, is_pid(P)]),
    %% A timeout of 0 in a loop drains the queue without blocking.
    [self() ! N || N <- lists:seq(1, 5)],
    io:format("drained ~p~n", [drain(0)]).

server(Parent, Count) ->
    receive
        {work, _} -> server(Parent, Count + 1)
    after 300 ->
        Parent ! {idle, Count}
    end.

collect(Acc) ->
    receive {item, N} -> collect([N | Acc]) after 200 -> lists:reverse(Acc) end.

drain(N) ->
    receive _ -> drain(N + 1) after 0 -> N end.
