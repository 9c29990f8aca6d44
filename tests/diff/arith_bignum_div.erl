-module(arith_bignum_div).
-export([main/0]).

%% Bignum division, gcd, powers and shifts at many sizes and signs.
main() ->
    Ns = [pow(7, 90), -pow(3, 150), pow(2, 127) - 1, pow(10, 40) + 3],
    Ds = [3, -97, pow(2, 64) + 1, -pow(5, 30), pow(10, 20)],
    [io:format("~w~n", [{N div D, N rem D}]) || N <- Ns, D <- Ds],
    io:format("~w~n", [[gcd(pow(2, 100) * 9, pow(6, 50)), gcd(pow(10, 30) + 7, 1 bsl 90)]]),
    io:format("~w~n", [[I bsl 100 || I <- [1, -1, 3]] ++ [(-1) bsl 200 bsr 199, pow(3, 99) bsr 100]]),
    io:format("~w~n", [[integer_to_list(pow(3, 120), B) || B <- [2, 7, 16, 36]]]),
    io:format("~w~n", [[pow(2, 64) band -1, -pow(2, 64) bor 255, pow(2, 100) bxor -pow(2, 99)]]),
    io:format("~w~n", [[abs(-pow(9, 40)), -pow(9, 40) * -pow(9, 40) =:= pow(81, 40)]]),
    io:format("~w~n", [lists:foldl(fun(X, A) -> A * X + 1 end, 1, lists:seq(1, 60))]),
    io:format("~w~n", [catch pow(2, 70) div 0]),
    ok.

pow(_, 0) -> 1;
pow(B, E) when E rem 2 == 0 -> H = pow(B, E div 2), H * H;
pow(B, E) -> B * pow(B, E - 1).

gcd(A, 0) -> abs(A);
gcd(A, B) -> gcd(B, A rem B).
