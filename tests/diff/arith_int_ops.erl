-module(arith_int_ops).
-export([main/0]).

%% Small-integer arithmetic at the edges of the 60-bit immediates.
main() ->
    Xs = [0, 1, -1, 7, -7, 576460752303423487, -576460752303423488,
          1152921504606846975, -1152921504606846976],
    [io:format("~w ~w: + ~w - ~w * ~w~n", [A, B, A + B, A - B, A * B])
     || A <- Xs, B <- [3, -3, 576460752303423487]],
    [io:format("~w div/rem ~w: ~w ~w~n", [A, B, A div B, A rem B])
     || A <- [17, -17, 0, 1000000007], B <- [5, -5, 1, 1000]],
    io:format("~w~n", [[abs(-5), abs(5), -(-3), +4, 7 band 3, 7 bor 8, 7 bxor 2,
                        bnot 5, 1 bsl 10, 1024 bsr 3, -1 bsr 1, -16 bsr 2]]),
    io:format("~w~n", [[max(3, 4), min(3, 4), max(1, 1.0), min(1, 1.0)]]),
    io:format("~w~n", [[is_integer(3), is_number(3.0), is_float(3)]]),
    io:format("~w~n", [lists:sum(lists:seq(1, 1000))]),
    io:format("~w~n", [fact(20)]),
    ok.

fact(0) -> 1;
fact(N) -> N * fact(N - 1).
