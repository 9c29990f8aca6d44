%% Shared by diff programs (not a program): what calling a fun gives, as a
%% term both runtimes print alike.
-module(outcome).
-export([run/1, print/1]).

%% {ok, Value} when F() returns, {Class, Reason} when it raises.
run(F) ->
    try F() of
        V -> {ok, V}
    catch
        C:R -> {C, R}
    end.

%% Prints what calling F gives: `no error: Value` when it returns, or
%% `Class:Reason` when it raises (what a program checking its error cases
%% shows, one line each).
print(F) ->
    case run(F) of
        {ok, V} -> io:format("no error: ~p~n", [V]);
        {C, R} -> io:format("~p:~p~n", [C, R])
    end.
