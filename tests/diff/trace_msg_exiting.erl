%% erlang:trace/3 with exiting (and running, procs): out_exited when a
%% traced process is scheduled out for the last time, after its exit
%% event; in when it is scheduled in to die of a kill.
-module(trace_msg_exiting).
-export([main/0, waiter/1]).

waiter(Kind) ->
    receive go -> ok end,
    case Kind of
        crash -> exit(boom);
        normal -> ok
    end.

main() ->
    Me = self(),
    [begin
         P = spawn(?MODULE, waiter, [Kind]),
         erlang:trace(P, true, Flags),
         P ! go,
         timer:sleep(50),
         show({Kind, Flags}, P)
     end || Kind <- [normal, crash],
            Flags <- [[exiting], [running], [running, exiting], [procs, exiting]]],
    %% Killed while waiting: scheduled in to die.
    K = spawn(?MODULE, waiter, [normal]),
    erlang:trace(K, true, [exiting, running]),
    exit(K, kill),
    timer:sleep(50),
    show(killed, K),
    %% exit/2 with another reason.
    E = spawn(?MODULE, waiter, [normal]),
    erlang:trace(E, true, [exiting]),
    exit(E, other),
    timer:sleep(50),
    show(exit2, E),
    %% Turned off again: nothing.
    F = spawn(?MODULE, waiter, [normal]),
    erlang:trace(F, true, [exiting]),
    erlang:trace(F, false, [exiting]),
    F ! go,
    timer:sleep(50),
    show(off, F),
    Me = self().

show(What, P) ->
    io:format("~p: ~p~n", [What, [trace_names:name(T, #{P => p}) || T <- trace_names:collect()]]).
