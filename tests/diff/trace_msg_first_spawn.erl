%% erlang:trace/3 with set_on_first_spawn: only the first process a traced
%% process spawns inherits its flags (without set_on_first_spawn itself),
%% so neither the second child nor the first child's own child is traced.
-module(trace_msg_first_spawn).
-export([main/0]).

main() ->
    Self = self(),
    P = spawn(fun() -> parent(Self) end),
    1 = erlang:trace(P, true, [procs, set_on_first_spawn]),
    P ! go,
    {C1, C2} = receive {children, A, B} -> {A, B} end,
    G = receive {grandchild, GC} -> GC end,
    %% Until C1 (traced) has ended and every trace message has come.
    C1Ref = monitor(process, C1),
    receive {'DOWN', C1Ref, process, C1, _} -> ok end,
    Delivered = erlang:trace_delivered(all),
    receive {trace_delivered, all, Delivered} -> ok end,
    Events = trace_names:collect(),
    Names = #{P => p, C1 => c1, C2 => c2, G => g, Self => main},
    [io:format("~p~n", [trace_names:name(T, Names)]) || T <- Events, element(2, T) =:= P],
    [io:format("~p~n", [trace_names:name(T, Names)]) || T <- Events, element(2, T) =:= C1],
    io:format("c2 traced: ~p~n", [[T || T <- Events, element(2, T) =:= C2] =/= []]),
    io:format("g traced: ~p~n", [[T || T <- Events, element(2, T) =:= G] =/= []]).

parent(Main) ->
    receive go -> ok end,
    C1 = spawn(fun() -> Main ! {grandchild, spawn(fun() -> ok end)} end),
    C2 = spawn(fun() -> ok end),
    Main ! {children, C1, C2},
    receive stop -> ok end.
