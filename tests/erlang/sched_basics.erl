-module(sched_basics).
-export([fib/1, nrev/1, sum/1, classify/1, tuples/0, catches/0, funs/0,
         big/0, tail/1, crash/1, try_it/1, apply_it/0, floats/0]).

fib(0) -> 0;
fib(1) -> 1;
fib(N) -> fib(N - 1) + fib(N - 2).

nrev([]) -> [];
nrev([H | T]) -> nrev(T) ++ [H].

sum(L) -> sum(L, 0).
sum([], Acc) -> Acc;
sum([H | T], Acc) -> sum(T, Acc + H).

classify(X) when is_integer(X), X > 100 -> big;
classify(X) when is_integer(X) -> small;
classify(X) when is_atom(X) -> atom;
classify({_, _}) -> pair;
classify([_ | _]) -> list;
classify(_) -> other.

tuples() ->
    T = {a, 1, "two"},
    T2 = setelement(2, T, 42),
    {element(1, T), element(2, T2), tuple_size(T), T2}.

catches() ->
    A = (catch throw(thrown)),
    {'EXIT', {badarith, _}} = (catch 1 / zero()),
    C = (catch exit(bye)),
    {A, C}.

zero() -> 0.

funs() ->
    K = 10,
    Add = fun(X) -> X + K end,
    Twice = fun(F, X) -> F(F(X)) end,
    {Add(1), Twice(Add, 1), lists_map(Add, [1, 2, 3])}.

lists_map(_, []) -> [];
lists_map(F, [H | T]) -> [F(H) | lists_map(F, T)].

big() ->
    F = fact(30),
    {F, F div fact(28), F rem 1000007, -F, F * F - F}.

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

tail(N) -> tail(N, 0).
tail(0, Acc) -> Acc;
tail(N, Acc) -> tail(N - 1, Acc + 1).

crash(X) -> element(X, {a}).

try_it(X) ->
    try crash(X) of
        V -> {ok, V}
    catch
        error:badarg -> caught_badarg;
        Class:Reason -> {Class, Reason}
    after
        ok
    end.

apply_it() ->
    {apply(sched_basics, fib, [10]), erlang:apply(fun fib/1, [11])}.

floats() ->
    {1.5 + 2, 10 / 4, 3 * 0.5, trunc(7.9), round(2.5), abs(-3)}.
