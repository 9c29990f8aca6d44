%% erlang:trace/3 with exiting (and running, procs): out_exited when a
%% traced process is scheduled out for the last time, after its exit
%% event; in when it is scheduled in to die of a kill.
-module(trace_msg_exiting).
-export([main/0, waiter/2]).

waiter(Kind, Parent) ->
    Parent ! {ready, self()},
    receive go -> ok end,
    case Kind of
        crash -> exit(boom);
        normal -> ok
    end.

main() ->
    Me = self(),
    [begin
         P = spawn(?MODULE, waiter, [Kind, Me]),
         waiting(P),
         erlang:trace(P, true, Flags),
         P ! go,
         ended(P),
         show({Kind, Flags}, P)
     end || Kind <- [normal, crash],
            Flags <- [[exiting], [running], [running, exiting], [procs, exiting]]],
    %% Killed while waiting: scheduled in to die.
    K = spawn(?MODULE, waiter, [normal, Me]),
    waiting(K),
    erlang:trace(K, true, [exiting, running]),
    exit(K, kill),
    ended(K),
    show(killed, K),
    %% exit/2 with another reason.
    E = spawn(?MODULE, waiter, [normal, Me]),
    waiting(E),
    erlang:trace(E, true, [exiting]),
    exit(E, other),
    ended(E),
    show(exit2, E),
    %% Turned off again: nothing.
    F = spawn(?MODULE, waiter, [normal, Me]),
    waiting(F),
    erlang:trace(F, true, [exiting]),
    erlang:trace(F, false, [exiting]),
    F ! go,
    ended(F),
    show(off, F),
    Me = self().

%% Until P has started and is about to wait in its receive: a traced
%% process must not be scheduled in before `go` for the first time (another
%% scheduler may start it at once), or it shows an extra in/out pair.
waiting(P) ->
    receive {ready, P} -> ok end.

%% Until P has exited and every trace message about it has arrived (a
%% loaded machine may not run P within a fixed sleep).
ended(P) ->
    M = monitor(process, P),
    receive {'DOWN', M, process, P, _} -> ok end,
    timer:sleep(10),
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end.

show(What, P) ->
    io:format("~p: ~p~n", [What, [trace_names:name(T, #{P => p}) || T <- trace_names:collect()]]).
