%% The first call of a new process: spawn(M, F, A) (or an export fun)
%% enters M:F through its export, so a call pattern on M:F fires `call`
%% in the new process (traced with set_on_spawn), and a return_trace
%% pattern returns from it when the process ends. A closure's code is
%% entered directly, and a pattern whose match specification fails the
%% arguments traces nothing.
-module(trace_first_call).
-export([main/0, waiter/1, quick/0, inc/1, local_only/0]).

waiter(X) -> receive go -> X end.
quick() -> ok.
inc(X) -> X + 1.
local_only() -> done.

main() ->
    erlang:trace_pattern({?MODULE, waiter, 1}, [{'_', [], [{return_trace}]}], [global]),
    erlang:trace_pattern({?MODULE, quick, 0}, [{'_', [], [{message, {self}}]}], [local]),
    erlang:trace_pattern({?MODULE, inc, 1}, [{[1], [], []}], [global]),
    erlang:trace_pattern({?MODULE, local_only, 0}, true, [local]),
    erlang:trace(self(), true, [call, procs, set_on_spawn]),
    Spawned = [{waiter, spawn(?MODULE, waiter, [1])},
               {quick, spawn(?MODULE, quick, [])},
               {export_fun, spawn(fun ?MODULE:quick/0)},
               {closure, spawn(fun() -> ok end)},
               {inc_1, spawn(?MODULE, inc, [1])},
               {inc_2, spawn(?MODULE, inc, [2])},
               {linked, spawn_link(?MODULE, waiter, [2])},
               {opt, element(1, spawn_opt(?MODULE, local_only, [], [monitor]))}],
    erlang:trace(self(), false, [call, procs, set_on_spawn]),
    [P ! go || {_, P} <- Spawned],
    %% Until each has ended and every trace message about them has come.
    [begin
         M = monitor(process, P),
         receive {'DOWN', M, process, P, _} -> ok end
     end || {_, P} <- Spawned],
    Delivered = erlang:trace_delivered(all),
    receive {trace_delivered, all, Delivered} -> ok end,
    Names = maps:from_list([{self(), main} | [{P, N} || {N, P} <- Spawned]]),
    Ts = [trace_names:name(T, Names) || T <- trace_names:collect()],
    [io:format("~p: ~p~n", [N, [list_to_tuple(tl(tl(tuple_to_list(T))))
                                || T <- Ts, element(2, T) =:= N]])
     || {N, _} <- Spawned],
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]).
