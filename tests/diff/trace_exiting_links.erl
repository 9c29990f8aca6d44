%% erlang:trace/3 with exiting on a process that ends with links and
%% monitors to take down (up to a thousand), a large heap, killed or
%% ending by itself: its exit work fits in one slice, so the one event is
%% out_exited (with more links it takes several, with out_exiting and
%% in_exiting between them: trace_exiting_slices).
-module(trace_exiting_links).
-export([main/0]).

main() ->
    Self = self(),
    Cases =
        [{links, 1000, fun(P) -> link(P) end, fun(P) -> P ! go end},
         {monitors, 1000, fun(P) -> erlang:monitor(process, P) end, fun(P) -> P ! go end},
         {links_killed, 500, fun(P) -> link(P) end, fun(P) -> exit(P, kill) end},
         {none_crash, 0, fun(_) -> ok end, fun(P) -> P ! crash end}],
    [begin
         P = spawn(fun() -> process_flag(trap_exit, true), wait() end),
         Others = [spawn(fun() -> process_flag(trap_exit, true), Watch(P), receive stop -> ok end end)
                   || _ <- lists:seq(1, N)],
         wait_linked(P, Others, Name),
         1 = erlang:trace(P, true, [exiting, {tracer, Self}]),
         Ref = monitor(process, P),
         End(P),
         receive {'DOWN', Ref, process, P, _} -> ok end,
         delivered(P),
         io:format("~p: ~p~n", [Name, [element(3, T) || T <- trace_names:collect()]]),
         [O ! stop || O <- Others]
     end || {Name, N, Watch, End} <- Cases],
    Big = spawn(fun() -> L = lists:seq(1, 200000), Self ! ready, receive go -> length(L) end end),
    receive ready -> ok end,
    1 = erlang:trace(Big, true, [exiting, procs, {tracer, Self}]),
    BigRef = monitor(process, Big),
    Big ! go,
    receive {'DOWN', BigRef, process, Big, normal} -> ok end,
    delivered(Big),
    io:format("big: ~p~n", [[element(3, T) || T <- trace_names:collect()]]),
    ok.

%% Until every trace message about P has arrived (its exit's last events
%% can come after its 'DOWN', however long a loaded machine takes).
delivered(P) ->
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end.

wait() ->
    receive
        go -> ok;
        crash -> exit(boom)
    end.

wait_linked(P, Others, Name) ->
    Want = length(Others),
    Item = case Name of monitors -> monitored_by; _ -> links end,
    case process_info(P, Item) of
        {Item, L} when length(L) >= Want -> ok;
        _ -> timer:sleep(10), wait_linked(P, Others, Name)
    end.
