%% Tracer modules through erl_tracer, OTP's own (its state is the process
%% that gets the trace messages): {tracer, erl_tracer, Pid} traces as
%% {tracer, Pid} does and trace_info names the pid; a state that is no live
%% process leaves the tracee untraced (still counted); {meta, erl_tracer,
%% Pid} in trace_pattern; erl_tracer:enabled/3 itself; and what a module
%% that is no tracer module raises (badarg, or undef from its enabled/3
%% when it cannot be loaded).
-module(trace_tracer_module_erl).
-export([main/0, work/1]).

work(N) -> N + 1.

main() ->
    Self = self(),
    T = trace_worker:collector(),
    P = trace_worker:worker(Self),
    Names = #{P => p, Self => main, T => t},
    show(Names, erlang:trace(P, true, [send, 'receive', {tracer, erl_tracer, T}])),
    show(Names, erlang:trace_info(P, tracer)),
    show(Names, erlang:trace_info(P, flags)),
    trace_worker:ask(P, 1),
    io:format("-- to t~n"),
    [show(Names, E) || E <- trace_worker:events(T)],
    %% A dead process or a state that is none: untraced, still counted.
    Dead = spawn(fun() -> ok end),
    Ref = monitor(process, Dead),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    Q = spawn(fun() -> receive stop -> ok end end),
    Names2 = Names#{Q => q, Dead => dead},
    show(Names2, erlang:trace(Q, true, [send, {tracer, erl_tracer, Dead}])),
    show(Names2, erlang:trace_info(Q, flags)),
    show(Names2, erlang:trace(Q, true, [send, {tracer, erl_tracer, not_a_pid}])),
    show(Names2, erlang:trace_info(Q, flags)),
    show(Names2, erlang:trace_info(Q, tracer)),
    show(Names2, erlang:trace(Q, false, [send, {tracer, erl_tracer, not_a_pid}])),
    %% Meta tracing to erl_tracer's process.
    show(Names2, erlang:trace_pattern({?MODULE, work, 1}, [{'_', [], [{return_trace}]}],
                                      [{meta, erl_tracer, T}])),
    show(Names2, erlang:trace_info({?MODULE, work, 1}, meta)),
    ?MODULE:work(41),
    io:format("-- meta~n"),
    [show(Names2, strip_ts(E)) || E <- trace_worker:events(T)],
    show(Names2, erlang:trace_pattern({?MODULE, work, 1}, false, [meta])),
    %% erl_tracer:enabled/3 answers as its NIF does.
    show(Names2, erl_tracer:enabled(trace_status, T, Self)),
    show(Names2, erl_tracer:enabled(send, T, T)),
    show(Names2, erl_tracer:enabled(send, Dead, Self)),
    show(Names2, erl_tracer:enabled(trace_status, [], Self)),
    %% Modules that are no tracer modules.
    show(Names2, catch erlang:trace(Q, true, [send, {tracer, lists, []}])),
    show(Names2, catch erlang:trace(Q, true, [send, {tracer, no_such_tracer_module, []}])),
    show(Names2, catch erlang:trace(Q, true, [send, {tracer, "lists", []}])),
    show(Names2, catch erlang:trace(Q, true, [send, {tracer, erl_tracer}])),
    show(Names2, catch erlang:trace_pattern({?MODULE, work, 1}, true, [{meta, lists, []}])),
    show(Names2, catch erlang:trace_pattern({?MODULE, work, 1}, true,
                                           [{meta, no_such_tracer_module, x}])),
    P ! stop,
    Q ! stop.

%% The timestamp of a meta trace message, which always has one.
strip_ts(E) when element(1, E) =:= trace_ts ->
    setelement(tuple_size(E), E, is_tuple(element(tuple_size(E), E)));
strip_ts(E) -> E.

%% An exception: its reason and first frame (the caller's pid named).
show(Names, {'EXIT', {Reason, [Frame | _]}}) ->
    io:format("~p~n", [trace_names:name({Reason, Frame}, Names)]);
show(Names, T) -> io:format("~p~n", [trace_names:name(T, Names)]).
