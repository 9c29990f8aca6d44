%% Safety of tracing: a tracer process that dies takes its flags with it
%% (from the traced process at its next event, and from the processes
%% spawned after), and a tracer that traces its own receives is not sent
%% a trace message for each trace message it gets. (Two tracers tracing
%% each other's receives loop on the BEAM; beamr never traces a trace
%% message's arrival: beamr-cli/tests/trace_safety.rs.)
-module(trace_tracer_dies).
-export([main/0]).

main() ->
    T = spawn(fun() -> receive stop -> ok end end),
    P = spawn(fun echo/0),
    1 = erlang:trace(P, true, [send, 'receive', procs, {tracer, T}]),
    io:format("traced: ~p ~p~n", [erlang:trace_info(P, flags),
                                  erlang:trace_info(P, tracer) =:= {tracer, T}]),
    TRef = monitor(process, T),
    T ! stop,
    receive {'DOWN', TRef, process, T, _} -> ok end,
    P ! {self(), ping},
    receive ping -> ok end,
    timer:sleep(50),
    io:format("tracer dead, after an event: ~p ~p~n",
              [erlang:trace_info(P, flags), erlang:trace_info(P, tracer)]),
    %% New processes traced to a tracer that died are not traced.
    T2 = spawn(fun() -> receive stop -> ok end end),
    erlang:trace(new, true, [procs, {tracer, T2}]),
    T2Ref = monitor(process, T2),
    T2 ! stop,
    receive {'DOWN', T2Ref, process, T2, _} -> ok end,
    Q = spawn(fun() -> receive _ -> ok end end),
    io:format("spawned after the death: ~p~n", [erlang:trace_info(Q, flags)]),
    erlang:trace(new, false, [procs]),
    %% A tracer tracing its own receives: the trace messages it gets are
    %% not traced (that would never end).
    Self = self(),
    R = spawn(fun echo/0),
    1 = erlang:trace(Self, true, ['receive']),
    1 = erlang:trace(R, true, [send, 'receive']),
    R ! {Self, one},
    receive one -> ok end,
    R ! {Self, two},
    receive two -> ok end,
    timer:sleep(50),
    erlang:trace(Self, false, ['receive']),
    erlang:trace(R, false, [send, 'receive']),
    Names = #{Self => main, R => r},
    io:format("self and r: ~p~n", [[trace_names:name(M, Names) || M <- trace_names:collect()]]).

echo() ->
    receive {From, M} -> From ! M, echo() end.
