-module(arith_compare).
-export([main/0]).

%% Term order and the two equalities across number types and other terms.
main() ->
    Terms = [1, 1.0, -0.0, 0, 0.0, 1 bsl 64, a, {1}, {1, 2}, [], [1], "a", <<>>,
             <<1>>, #{}, #{a => 1}, self_free, 2.5, -(1 bsl 70)],
    io:format("~w~n", [lists:sort(Terms)]),
    [io:format("~w ~w: ~w ~w ~w ~w ~w~n", [A, B, A == B, A =:= B, A < B, A >= B, A /= B])
     || A <- [1, 1.0, 0, 0.0, -0.0, 1 bsl 64, float(1 bsl 64)],
        B <- [1, 1.0, 0.0, -0.0, float(1 bsl 64)]],
    io:format("~w~n", [[1 < a, a < {}, {} < #{}, #{} < [], [] < <<>>, {2} < {1, 1},
                        [1, 2] < [1, 3], "abc" < "abd", <<1, 2>> < <<1, 3>>]]),
    io:format("~w~n", [lists:usort([3, 3.0, 2, 2.0, 1])]),
    ok.
