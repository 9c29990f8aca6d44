-module(arith_errors).
-export([main/0]).

%% Arithmetic errors: badarith and friends, caught with catch and try.
main() ->
    Cases = [fun() -> 1 div zero() end,
             fun() -> 1 rem zero() end,
             fun() -> 1 / zero() end,
             fun() -> 1.0 / zero() end,
             fun() -> atom() + 1 end,
             fun() -> 1 band 1.0 end,
             fun() -> 1 bsl atom() end,
             fun() -> -atom() end,
             fun() -> bnot 2.0 end,
             fun() -> math:sqrt(-1) end,
             fun() -> math:log(0) end,
             fun() -> float(atom()) end,
             fun() -> trunc(atom()) end,
             fun() -> abs(atom()) end,
             fun() -> (1 bsl 100) div zero() end,
             fun() -> 1.0e308 * 10.0 end],
    lists:foreach(fun(F) -> io:format("~p~n", [try F() catch C:R -> {C, R} end]) end, Cases),
    io:format("~p~n", [catch 1 div zero()]),
    ok.

zero() -> list_to_integer("0").
atom() -> list_to_atom("a").
