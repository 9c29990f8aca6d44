%% erlang:trace/3's port targets: one port, existing_ports, new_ports,
%% and the ports among all/existing/new; the flags each kind takes (port
%% events go to ports, process events to processes, send, 'receive' and
%% timestamps to both); trace_info/2 of a port and of new_ports; a port
%% that has closed. Counts are printed against the processes and ports
%% there are (the runtimes start different numbers of their own).
-module(trace_ports_targets).
-export([main/0]).

main() ->
    Self = self(),
    Tracer = trace_names:keeper(),
    P = open_port({spawn, "cat"}, [binary]),
    show(one, erlang:trace(P, true, [ports, send, 'receive', timestamp, {tracer, Tracer}])),
    show(info, [erlang:trace_info(P, I) =:= {I, V}
                || {I, V} <- [{flags, [ports, 'receive', send, timestamp]}, {tracer, Tracer}]]),
    show(bad_item, catch_error(fun() -> erlang:trace_info(P, bad) end)),
    show(off, erlang:trace(P, false, [timestamp])),
    show(info, erlang:trace_info(P, flags)),
    P ! {Self, {command, <<"x">>}},
    receive {P, {data, <<"x">>}} -> ok end,
    true = port_close(P),
    show(closed_info, [erlang:trace_info(P, I) || I <- [flags, tracer]]),
    show(closed_trace, catch_error(fun() -> erlang:trace(P, true, [send]) end)),
    %% Groups: who is visited for which flags.
    NProcs = length(processes()),
    NPorts = length(erlang:ports()),
    Q = open_port({spawn, "cat"}, []),
    Count = fun(Spec, Flags) ->
                    N = erlang:trace(Spec, true, [{tracer, Tracer} | Flags]),
                    erlang:trace(Spec, false, Flags),
                    N
            end,
    show(existing_ports_ports, Count(existing_ports, [ports]) - (NPorts + 1)),
    show(existing_ports_procs, Count(existing_ports, [procs])),
    show(existing_ports_send, Count(existing_ports, [send]) - (NPorts + 1)),
    show(existing_processes_ports, Count(existing_processes, [ports])),
    show(existing_procs, Count(existing, [procs]) - NProcs),
    show(existing_ports_flag, Count(existing, [running_ports]) - (NPorts + 1)),
    show(existing_both, Count(existing, [procs, ports]) - (NProcs + NPorts + 1)),
    show(all_send, Count(all, [send]) - (NProcs + NPorts + 1)),
    show(new, Count(new, [send])),
    %% The settings of new processes and of new ports apart.
    Info = fun() -> [element(2, erlang:trace_info(S, flags)) || S <- [new, new_processes, new_ports]] end,
    erlang:trace(new, true, [ports, procs, send, running, running_ports, timestamp, {tracer, Tracer}]),
    show(new_both, Info()),
    erlang:trace(new_ports, true, [procs]),
    show(new_ports_procs, Info()),
    erlang:trace(processes, true, [ports]),
    show(processes_ports, Info()),
    erlang:trace(new_processes, false, [send]),
    show(new_processes_off, Info()),
    erlang:trace(new_ports, false, [running_ports]),
    show(new_ports_off, Info()),
    %% A port opened now is traced as new ports are.
    erlang:trace(new_ports, true, [ports, {tracer, Tracer}]),
    R = open_port({spawn, "cat"}, []),
    show(new_port, erlang:trace_info(R, flags)),
    erlang:trace(all, false, [all]),
    show(cleared, Info()),
    port_close(Q),
    port_close(R),
    timer:sleep(50),
    Events = trace_names:kept(Tracer),
    %% What the one traced port sent, timestamps stripped.
    Ps = [setelement(1, strip(E), trace) || E <- Events, element(2, E) =:= P],
    [io:format("~p~n", [E]) || E <- tl(trace_names:ordered([Self | Ps]))],
    ok.

strip(E) when element(1, E) =:= trace_ts -> erlang:delete_element(tuple_size(E), E);
strip(E) -> E.

show(What, Value) ->
    io:format("~p: ~p~n", [What, trace_names:ordered([Value])]).

catch_error(F) ->
    try F() catch error:R -> {error, R} end.
