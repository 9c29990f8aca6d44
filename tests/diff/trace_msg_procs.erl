%% erlang:trace/3 with procs and set_on_spawn: spawn, spawned, link,
%% getting_linked, register, unregister and exit, per process in order.
-module(trace_msg_procs).
-export([main/0]).

main() ->
    Self = self(),
    P = spawn(fun() -> parent(Self) end),
    1 = erlang:trace(P, true, [procs, set_on_spawn]),
    P ! go,
    C = receive {child, Child} -> Child end,
    receive done -> ok end,
    %% Until C has ended and every trace message has come.
    CRef = monitor(process, C),
    receive {'DOWN', CRef, process, C, _} -> ok end,
    Delivered = erlang:trace_delivered(all),
    receive {trace_delivered, all, Delivered} -> ok end,
    Events = trace_names:collect(),
    Names = #{P => p, C => c, Self => main},
    [io:format("~p~n", [trace_names:name(T, Names)]) || T <- Events, element(2, T) =:= P],
    [io:format("~p~n", [trace_names:name(T, Names)]) || T <- Events, element(2, T) =:= C],
    ok.

parent(Main) ->
    receive go -> ok end,
    C = spawn_link(fun() -> receive stop -> ok end end),
    Main ! {child, C},
    register(trace_msg_child, C),
    unlink(C),
    C ! stop,
    receive after 20 -> ok end,
    Main ! done.
