-module(arith_bignum_ops).
-export([main/0]).

%% Bignum arithmetic: growth across the small/big boundary and back.
main() ->
    Big = 1 bsl 64,
    Bigs = [Big, -Big, Big - 1, 1 bsl 200, -(1 bsl 130) + 7,
            123456789012345678901234567890],
    [io:format("~w ~w: ~w ~w ~w~n", [A, B, A + B, A - B, A * B])
     || A <- Bigs, B <- [1, -1, 1 bsl 70, 3]],
    [io:format("~w div/rem ~w: ~w ~w~n", [A, B, A div B, A rem B])
     || A <- Bigs, B <- [7, -7, 1 bsl 65, -(1 bsl 100)]],
    io:format("~w~n", [fact(60)]),
    io:format("~w~n", [fact(60) div fact(58)]),
    io:format("~w~n", [pow(3, 200)]),
    io:format("~w~n", [(1 bsl 100) - (1 bsl 100) + 5]),
    io:format("~w~n", [[Big band (Big - 1), Big bor 1, (Big * 3) bxor Big,
                        bnot Big, Big bsl 3, Big bsr 60, -Big bsr 63,
                        (1 bsl 300) bsr 299]]),
    io:format("~w~n", [[abs(-(1 bsl 90)), -(1 bsl 59) * 2, (1 bsl 59) * -2]]),
    io:format("~w~n", [[Big > 1, Big < -Big, Big == Big * 1, Big =:= Big + 0.0,
                        Big == Big + 0.0, 1 bsl 64 > 1.0e19]]),
    io:format("~w~n", [[integer_to_list(1 bsl 100), integer_to_list(-(1 bsl 70), 16)]]),
    io:format("~w~n", [[float(1 bsl 80), trunc(1.0e20), round(-3.5e19)]]),
    io:format("~p~n", [fib(300)]),
    ok.

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

pow(_, 0) -> 1;
pow(B, E) -> B * pow(B, E - 1).

fib(N) -> fib(N, 0, 1).
fib(0, A, _) -> A;
fib(N, A, B) -> fib(N - 1, B, A + B).
