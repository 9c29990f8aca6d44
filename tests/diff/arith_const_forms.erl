-module(arith_const_forms).
-export([main/0]).

%% The forms the loader gives arithmetic and comparisons with constant or
%% X-register operands: `rem` by a constant (a power of two by a mask),
%% `=:=` of a register and an immediate, `+` of two registers; each with
%% the operands that leave the fast path (negatives, bignums, floats,
%% non-numbers) and the errors they raise.
main() ->
    Ns = [0, 1, 7, 255, 256, 257, 1000, -1, -7, -255, -256, -257, -1000,
          (1 bsl 59) - 1, -(1 bsl 59), 1 bsl 59, -(1 bsl 59) - 1, 1 bsl 100, -(1 bsl 100)],
    io:format("~p~n", [[{N, r256(N), r1(N), r2(N), r7(N), rm8(N), rm1(N)} || N <- Ns]]),
    io:format("~p~n", [[catch_error(fun() -> r256(V) end) || V <- [1.5, a, <<>>]]]),
    io:format("~p~n", [[catch_error(fun() -> rm8(V) end) || V <- [-2.5, "x"]]]),
    io:format("~p~n", [[guard_rem(V) || V <- [10, -10, 2.0, x]]]),
    io:format("~p~n", [[{V, zero(V), is_ok(V), is_nil(V)} || V <- [0, 0.0, -0.0, 1 bsl 70, ok, [], "", {}, <<>>, 1]]]),
    io:format("~p~n", [count(10, 0)]),
    Vs = [0, 1, -1, (1 bsl 59) - 1, -(1 bsl 59), 1 bsl 64, 2.5, -0.5],
    io:format("~p~n", [[{A, B, add(A, B)} || A <- Vs, B <- Vs]]),
    io:format("~p~n", [[catch_error(fun() -> add(A, B) end) || {A, B} <- [{1, a}, {a, 1}, {1.0, "x"}, {[], 2}]]]),
    io:format("~p~n", [[guard_add(A, B) || {A, B} <- [{1, 2}, {1, b}, {1.5, 1}]]]),
    ok.

r256(N) -> N rem 256.
r1(N) -> N rem 1.
r2(N) -> N rem 2.
r7(N) -> N rem 7.
rm8(N) -> N rem -8.
rm1(N) -> N rem -1.

guard_rem(N) when N rem 4 =:= 2 -> two;
guard_rem(N) when N rem 4 =:= -2 -> minus_two;
guard_rem(_) -> other.

zero(N) when N =:= 0 -> yes;
zero(_) -> no.
is_ok(V) when V =:= ok -> yes;
is_ok(_) -> no.
is_nil(V) when V =:= [] -> yes;
is_nil(_) -> no.

count(0, Acc) -> Acc;
count(N, Acc) -> count(N - 1, Acc + N rem 3).

add(A, B) -> id(A) + id(B).

guard_add(A, B) when A + B > 2 -> big;
guard_add(_, _) -> small_or_bad.

id(X) -> X.

catch_error(F) ->
    try F() of
        V -> {ok, V}
    catch
        C:R:S -> {C, R, [{M, Fn, A} || {M, Fn, A, _} <- lists:sublist(S, 1)]}
    end.
