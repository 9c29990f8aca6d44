-module(maps_large_print).
-export([main/0]).

%% Printing large maps whose keys are integers (hash order reproduced by
%% beamr for non-atom keys), and nested maps.
main() ->
    M = maps:from_list([{I, I rem 7} || I <- lists:seq(1, 40)]),
    io:format("~w~n", [M]),
    io:format("~p~n", [M]),
    io:format("~w~n", [maps:keys(M)]),
    io:format("~w~n", [maps:to_list(maps:from_list([{{I, -I}, I} || I <- lists:seq(1, 35)]))]),
    io:format("~p~n", [#{outer => #{inner => [1, 2, #{deep => true}]}, list => [#{}]}]),
    ok.
