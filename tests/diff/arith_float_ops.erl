-module(arith_float_ops).
-export([main/0]).

%% Float arithmetic, rounding BIFs and mixed integer/float operations.
main() ->
    Fs = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999, 1.0e15 + 0.5, -7.9],
    [io:format("~w: ~w ~w ~w ~w~n", [F, round(F), trunc(F), ceil(F), floor(F)]) || F <- Fs],
    io:format("~w~n", [[1 + 0.5, 3 / 2, 4 / 2, 1.0 * 3, 2 - 0.25, -1.0 * 0.0]]),
    io:format("~w~n", [[0.1 + 0.2, 1.0 / 3.0, 2.0 / 3.0, 1.0e-10 * 1.0e-10, 1.0e200 * 1.0e100]]),
    io:format("~w~n", [[float(7), float(-7), abs(-2.5), -(2.5), max(2.0, 2)]]),
    io:format("~w~n", [[math:sqrt(2), math:pow(2, 0.5), math:exp(1), math:log(10),
                        math:log2(1024), math:log10(0.001), math:pi()]]),
    io:format("~w~n", [[math:sin(0.5), math:cos(0.5), math:tan(0.5), math:atan2(1, -1),
                        math:asin(1.0), math:acos(0.0), math:sinh(1), math:tanh(0.5)]]),
    io:format("~w~n", [[math:floor(-2.5), math:ceil(-2.5), math:fmod(7.5, 2), math:fmod(-7.5, 2)]]),
    io:format("~w~n", [lists:foldl(fun(X, Acc) -> Acc + X / 7 end, 0, lists:seq(1, 100))]),
    ok.
