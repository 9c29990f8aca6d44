%% Shared by the trace_* programs (not a program): trace messages with
%% pids replaced by names (so both runtimes print the same), funs and
%% references by placeholders, printed or collected from the mailbox.
-module(trace_names).
-export([name/2, print/1, collect/0, ordered/1, keeper/0, kept/1, print_by_port/1]).

%% Term with every pid replaced by its name in Names (other_pid if absent),
%% every fun by a_fun and every reference by a_ref.
name(T, Names) when is_tuple(T) -> list_to_tuple([name(E, Names) || E <- tuple_to_list(T)]);
name(L, Names) when is_list(L) -> [name(E, Names) || E <- L];
name(P, Names) when is_pid(P) -> maps:get(P, Names, other_pid);
name(F, _) when is_function(F) -> a_fun;
name(R, _) when is_reference(R) -> a_ref;
name(X, _) -> X.

%% Prints each trace message in the mailbox, named, in arrival order,
%% until none arrives for 100 ms.
print(Names) ->
    receive
        T when element(1, T) =:= trace ->
            io:format("~p~n", [name(T, Names)]),
            print(Names)
    after 100 -> ok
    end.

%% The trace messages in the mailbox, in arrival order, until none arrives
%% for 100 ms.
collect() ->
    receive T when element(1, T) =:= trace -> [T | collect()] after 100 -> [] end.

%% Terms with every pid and port replaced by {pid, N} or {port, N}, N
%% counting each kind in order of first appearance across all of them.
ordered(Terms) ->
    {Named, _} = lists:mapfoldl(fun ordered/2, #{}, Terms),
    Named.

ordered(T, Seen) when is_tuple(T) ->
    {L, Seen1} = ordered(tuple_to_list(T), Seen),
    {list_to_tuple(L), Seen1};
ordered([H | T], Seen) ->
    {H1, Seen1} = ordered(H, Seen),
    {T1, Seen2} = ordered(T, Seen1),
    {[H1 | T1], Seen2};
ordered(X, Seen) when is_pid(X); is_port(X) ->
    case Seen of
        #{X := Name} -> {Name, Seen};
        _ ->
            Kind = if is_pid(X) -> pid; true -> port end,
            N = length([K || {K, _} <- maps:values(Seen), K =:= Kind]) + 1,
            {{Kind, N}, Seen#{X => {Kind, N}}}
    end;
ordered(X, Seen) ->
    {X, Seen}.

%% A process that keeps every message it gets: a tracer whose trace
%% messages kept/1 hands back.
keeper() ->
    spawn(fun() -> keep([]) end).

keep(Acc) ->
    receive
        {kept, To} -> To ! {kept, self(), lists:reverse(Acc)};
        T -> keep([T | Acc])
    end.

%% What Keeper (from keeper/0) got, in arrival order; it then ends.
kept(Keeper) ->
    Keeper ! {kept, self()},
    receive {kept, Keeper, Msgs} -> Msgs end.

%% Prints named trace messages grouped by their second element (a port's
%% events in order; ports run apart from each other, so their events
%% interleave differently from run to run).
print_by_port(Named) ->
    Ports = lists:usort([element(2, E) || E <- Named]),
    [io:format("~p~n", [E]) || Port <- Ports, E <- Named, element(2, E) =:= Port],
    ok.
