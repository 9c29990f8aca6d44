%% Shared by diff programs (not a program): what calling a fun gives, as a
%% term both runtimes print alike.
-module(outcome).
-export([run/1]).

%% {ok, Value} when F() returns, {Class, Reason} when it raises.
run(F) ->
    try F() of
        V -> {ok, V}
    catch
        C:R -> {C, R}
    end.
