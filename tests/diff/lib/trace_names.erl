%% Shared by the trace_* programs (not a program): trace messages with
%% pids replaced by names (so both runtimes print the same), funs and
%% references by placeholders, printed or collected from the mailbox.
-module(trace_names).
-export([name/2, print/1, collect/0]).

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
