-module(lists_higher_order).
-export([main/0]).

%% lists' higher-order functions.
main() ->
    L = lists:seq(1, 12),
    p(lists:map(fun(X) -> X * X end, L)),
    p(lists:filter(fun(X) -> X rem 3 == 0 end, L)),
    p(lists:foldl(fun(X, A) -> [X | A] end, [], L)),
    p(lists:foldr(fun(X, A) -> [X | A] end, [], L)),
    p(lists:mapfoldl(fun(X, A) -> {X * 2, A + X} end, 0, L)),
    p(lists:mapfoldr(fun(X, A) -> {A, A + X} end, 0, L)),
    p(lists:filtermap(fun(X) when X > 8 -> {true, -X}; (X) -> X rem 2 == 0 end, L)),
    p(lists:flatmap(fun(X) -> lists:duplicate(X rem 3, X) end, L)),
    p([lists:all(fun is_integer/1, L), lists:any(fun(X) -> X > 11 end, L),
       lists:any(fun(X) -> X > 12 end, L)]),
    p(lists:zipwith(fun(A, B) -> A * B end, L, lists:reverse(L))),
    p(lists:zipwith3(fun(A, B, C) -> A + B + C end, [1, 2], [3, 4], [5, 6])),
    lists:foreach(fun(X) -> io:format("~w;", [X]) end, L), io:nl(),
    p(lists:search(fun(X) -> X > 5 end, L)),
    p(lists:splitwith(fun(X) -> X < 4 end, L)),
    p([X * Y || X <- [1, 2, 3], Y <- [10, 20], X + Y > 12]),
    p([{X, Y} || {X, Y} <- [{1, a}, b, {2, c}, {3}]]),
    p([X || <<X:4>> <= <<16#ab, 16#cd>>]),
    p(lists:foldl(fun(X, {Min, Max}) -> {min(X, Min), max(X, Max)} end, {100, 0}, L)),
    ok.

p(X) -> io:format("~w~n", [X]).
