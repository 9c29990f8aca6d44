%% Fixture: integer and float arithmetic, comparisons and guards.
-module(disasm_arith).
-export([add/2, sub/2, mul/2, divs/2, bits/2, cmp/2, neg/1, fact/1, abs_val/1]).

add(A, B) -> A + B.
sub(A, B) -> A - B + 1.
mul(A, B) -> A * B * 3.
divs(A, B) -> {A div B, A rem B, A / B}.
bits(A, B) -> (A band B) bor (A bxor B) bsl 2 bsr 1 + bnot A.
cmp(A, B) when A < B -> lt;
cmp(A, B) when A > B -> gt;
cmp(A, B) when A =:= B -> eq;
cmp(A, B) when A == B -> eqish;
cmp(_, _) -> other.
neg(X) when is_integer(X) -> -X;
neg(X) when is_float(X) -> -X * 1.0.
fact(0) -> 1;
fact(N) when N > 0 -> N * fact(N - 1).
abs_val(X) -> abs(X) + length([X]) + tuple_size({X}) + self_size(X).
self_size(X) -> byte_size(term_to_binary(X)).
