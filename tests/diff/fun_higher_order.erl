-module(fun_higher_order).
-export([main/0]).

%% Functions as data: pipelines, memo tables, continuation passing.
main() ->
    Pipeline = [fun(L) -> lists:map(fun(X) -> X * X end, L) end,
                fun(L) -> lists:filter(fun(X) -> X rem 2 == 1 end, L) end,
                fun lists:sum/1],
    p(lists:foldl(fun(Step, Acc) -> Step(Acc) end, lists:seq(1, 20), Pipeline)),
    Ops = #{add => fun erlang:'+'/2, mul => fun erlang:'*'/2, sub => fun erlang:'-'/2},
    p([(maps:get(Op, Ops))(7, 3) || Op <- [add, mul, sub]]),
    p(cps_fact(10, fun(X) -> {done, X} end)),
    p(fix(fun(Self) -> fun(0) -> 0; (N) -> N + Self(N - 1) end end, 100)),
    Gen = iterate(fun(X) -> X * 2 end, 1, 12),
    p(Gen),
    p(lists:sort(fun({_, A}, {_, B}) -> A > B end, [{a, 3}, {b, 1}, {c, 2}])),
    ok.

cps_fact(0, K) -> K(1);
cps_fact(N, K) -> cps_fact(N - 1, fun(R) -> K(N * R) end).

fix(F, N) -> (F(fun(X) -> fix(F, X) end))(N).

iterate(_, _, 0) -> [];
iterate(F, X, N) -> [X | iterate(F, F(X), N - 1)].

p(X) -> io:format("~p~n", [X]).
