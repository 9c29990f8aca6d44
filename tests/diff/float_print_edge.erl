-module(float_print_edge).
-export([main/0]).

%% Float printing at the edges: powers of ten, subnormals, halfway
%% values, and float_to_list's 20-digit scientific default.
main() ->
    Powers = [math:pow(10, E) || E <- lists:seq(-25, 25, 5)],
    io:format("~w~n", [Powers]),
    io:format("~p~n", [[1.0e-323, 4.9e-324, 2.225073858507201e-308, 1.7976931348623157e308]]),
    io:format("~w~n", [[X / 10 || X <- lists:seq(1, 10)]]),
    io:format("~w~n", [[1 / X || X <- lists:seq(1, 12)]]),
    io:format("~s~n", [string:join([float_to_list(F) || F <- [0.1, 1 / 3, 1.0e-300, -5.5]], " ")]),
    io:format("~w~n", [[round(X * 1.0e15) / 1.0e15 || X <- [0.1, 0.7]]]),
    io:format("~w~n", [[float(N) || N <- [1 bsl 53, (1 bsl 53) + 1, 1 bsl 63, 1 bsl 100]]]),
    io:format("~w~n", [[trunc(1.0e18), round(2.5), round(-2.5), round(0.49999999999999994)]]),
    io:format("~.20f~n", [0.1]),
    io:format("~.17g~n", [0.1]),
    io:format("~w~n", [binary_to_term(term_to_binary(0.1)) =:= 0.1]),
    ok.
