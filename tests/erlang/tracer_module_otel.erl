%% Exports to OpenTelemetry from Erlang code, for
%% beamr-cli/tests/tracer_module_otel.rs: beamr_otel_tracer as the tracer
%% module of erlang:trace/3, its collector and service name given in the
%% state. A traced child spawns a grandchild (traced too: set_on_spawn)
%% and both exit; prints the three pids.
-module(tracer_module_otel).
-export([main/1]).

main([Endpoint]) ->
    Tracer = {tracer, beamr_otel_tracer, #{endpoint => Endpoint, protocol => grpc,
                                          service_name => <<"beamr-tracer-module">>}},
    Self = self(),
    {C, Ref} = spawn_monitor(fun() -> receive go -> child(Self) end end),
    1 = erlang:trace(C, true, [procs, set_on_spawn, Tracer]),
    C ! go,
    receive {grandchild, G} -> ok end,
    receive {'DOWN', Ref, process, C, normal} -> ok end,
    {tracer, {beamr_otel_tracer, _}} = erlang:trace_info(G, tracer),
    G ! stop,
    io:format("~p ~p ~p~n", [Self, C, G]).

child(Parent) ->
    G = spawn(fun() -> receive stop -> ok end end),
    Parent ! {grandchild, G}.
