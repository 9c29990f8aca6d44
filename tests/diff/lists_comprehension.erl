-module(lists_comprehension).
-export([main/0]).

%% List comprehensions: generators, filters, patterns, nesting.
main() ->
    p([{X, Y} || X <- lists:seq(1, 4), Y <- lists:seq(X, 4), (X + Y) rem 2 == 0]),
    p([X || {ok, X} <- [{ok, 1}, error, {ok, 2}, {error, 3}]]),
    p([[Y * X || Y <- lists:seq(1, X)] || X <- lists:seq(1, 5)]),
    p(pythag(30)),
    p(qsort([5, 3, 9, 1, 5, 7, 2, 8])),
    p(perms([a, b, c])),
    p([C || C <- "Hello World", C >= $a, C =< $z]),
    p(lists:sum([X * X || X <- lists:seq(1, 100), X rem 3 =:= 0])),
    p([{K, V} || {K, V} <- lists:zip([a, b, c], [1, 2, 3]), V > 1]),
    p([X || X <- [1, 2, 3], false]),
    p(length([ok || _ <- lists:seq(1, 5000)])),
    ok.

pythag(N) ->
    [{A, B, C} || A <- lists:seq(1, N), B <- lists:seq(A, N), C <- lists:seq(B, N),
                  A * A + B * B =:= C * C].

qsort([]) -> [];
qsort([P | T]) -> qsort([X || X <- T, X < P]) ++ [P] ++ qsort([X || X <- T, X >= P]).

perms([]) -> [[]];
perms(L) -> [[H | T] || H <- L, T <- perms(L -- [H])].

p(X) -> io:format("~w~n", [X]).
