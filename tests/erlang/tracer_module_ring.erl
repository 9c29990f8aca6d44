%% Records into a ring-buffer file from Erlang code, for
%% beamr-cli/tests/tracer_module_ring.rs: beamr_ring_tracer as the tracer
%% module of erlang:trace/3 (a child's messages and its end) and of a meta
%% pattern (calls of double/1 and their returns), both into the file given
%% as the argument; prints what trace_info says and what bad states raise.
-module(tracer_module_ring).
-export([main/1, double/1]).

double(N) -> 2 * N.

main([File]) ->
    Tracer = {tracer, beamr_ring_tracer, #{file => File}},
    C = spawn(fun() -> child() end),
    1 = erlang:trace(C, true, [send, 'receive', procs, Tracer]),
    1 = erlang:trace_pattern({?MODULE, double, 1}, [{'_', [], [{return_trace}]}],
                             [{meta, beamr_ring_tracer, #{file => list_to_binary(File)}}]),
    {meta, {beamr_ring_tracer, _}} = erlang:trace_info({?MODULE, double, 1}, meta),
    C ! {double, 21, self()},
    receive {doubled, 42} -> ok end,
    %% C has taken its flags by now (they reach it as a signal).
    {tracer, {beamr_ring_tracer, #{file := File}}} = erlang:trace_info(C, tracer),
    {flags, Flags} = erlang:trace_info(C, flags),
    io:format("flags ~p~n", [lists:sort(Flags)]),
    Ref = monitor(process, C),
    C ! stop,
    receive {'DOWN', Ref, process, C, normal} -> ok end,
    [io:format("~p~n", [bad(State)]) || State <- [[], #{}, #{file => 42},
                                                  #{file => File, colour => blue}]],
    io:format("done~n").

bad(State) ->
    try erlang:trace(self(), true, [send, {tracer, beamr_ring_tracer, State}]) of
        N -> {unexpected, N}
    catch error:badarg:Stack ->
        [{erlang, trace, _, [{error_info, #{cause := Cause}}]} | _] = Stack,
        {badarg, Cause}
    end.

child() ->
    receive
        {double, N, From} -> From ! {doubled, ?MODULE:double(N)}, child();
        stop -> ok
    end.
