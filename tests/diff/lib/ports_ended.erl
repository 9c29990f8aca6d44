%% Shared by diff programs (not a program): waiting until ports are gone
%% and their trace messages delivered.
-module(ports_ended).
-export([wait/1]).

%% Until every port in Ports has ended (its last events are then made),
%% and every trace message made so far has reached its tracer.
wait(Ports) ->
    [gone(P) || P <- Ports],
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end.

gone(P) ->
    case erlang:port_info(P) of
        undefined -> ok;
        _ -> timer:sleep(1), gone(P)
    end.
