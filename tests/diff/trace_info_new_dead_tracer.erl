%% erlang:trace_info/2 of new, new_processes and new_ports once their
%% tracer has died: erts forgets the settings (flags [] and tracer []),
%% and a process spawned then is not traced.
-module(trace_info_new_dead_tracer).
-export([main/0]).

main() ->
    Tracer = spawn(fun() -> receive stop -> ok end end),
    Info = fun() ->
                   [erlang:trace_info(S, I) || S <- [new, new_processes, new_ports],
                                               I <- [flags, tracer]]
           end,
    erlang:trace(new, true, [send, procs, ports, {tracer, Tracer}]),
    io:format("set ~p~n", [[case X of {tracer, T} -> {tracer, T =:= Tracer}; _ -> X end
                            || X <- Info()]]),
    Ref = monitor(process, Tracer),
    Tracer ! stop,
    receive {'DOWN', Ref, process, Tracer, normal} -> ok end,
    io:format("dead ~p~n", [Info()]),
    Child = spawn(fun() -> receive stop -> ok end end),
    io:format("child ~p~n", [erlang:trace_info(Child, flags)]),
    Child ! stop,
    ok.
