-module(lists_large).
-export([main/0]).

%% Lists of 100k elements and non-tail recursion 100k deep.
main() ->
    N = 100000,
    L = lists:seq(1, N),
    io:format("~w~n", [[length(L), lists:sum(L), lists:last(L), lists:nth(N div 2, L)]]),
    io:format("~w~n", [len(L)]),
    io:format("~w~n", [lists:sum(double(L))]),
    R = lists:reverse(L),
    io:format("~w~n", [lists:sublist(lists:sort(R), 5)]),
    io:format("~w~n", [length(lists:usort([X rem 1000 || X <- L]))]),
    M = maps:from_list([{X, X} || X <- lists:seq(1, 20000)]),
    io:format("~w~n", [map_size(M)]),
    io:format("~w~n", [byte_size(list_to_binary([X rem 256 || X <- L]))]),
    io:format("~w~n", [length(lists:flatten([[X, [X]] || X <- lists:seq(1, 20000)]))]),
    ok.

len([]) -> 0;
len([_ | T]) -> 1 + len(T).

double([]) -> [];
double([H | T]) -> [2 * H | double(T)].
