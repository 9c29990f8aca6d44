-module(arith_bignum_large).
-export([main/0]).

%% Large bignums: thousands of digits, printing and digit arithmetic.
main() ->
    F = fact(1000),
    S = integer_to_list(F),
    io:format("~w~n", [[length(S), lists:sum([C - $0 || C <- S]), F rem 1000000007]]),
    P = 1 bsl 10000,
    io:format("~w~n", [[length(integer_to_list(P)), P rem 999983, (P - 1) band 16#FFFF]]),
    io:format("~s~n", [lists:sublist(integer_to_list(pow(7, 500)), 60)]),
    io:format("~w~n", [F div fact(998)]),
    io:format("~w~n", [list_to_integer(S) =:= F]),
    io:format("~w~n", [binary_to_term(term_to_binary(F)) =:= F]),
    io:format("~w~n", [byte_size(term_to_binary(F))]),
    ok.

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

pow(_, 0) -> 1;
pow(B, E) -> B * pow(B, E - 1).
