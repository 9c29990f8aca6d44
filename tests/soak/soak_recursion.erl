%% Body recursion 100 million calls deep (the stack grows to gigabytes and
%% shrinks again), then a second descent to see that the process goes on.
-module(soak_recursion).
-export([main/0]).

-define(DEPTH, 100000000).

main() ->
    io:format("depth ~w~n", [depth(?DEPTH)]),
    io:format("again ~w~n", [depth(?DEPTH div 10)]).

depth(0) -> 0;
depth(N) -> 1 + depth(N - 1).
