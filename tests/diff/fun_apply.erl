-module(fun_apply).
-export([main/0, f/0, f/1, f/3]).

%% apply/2,3, dynamic calls, and the errors calling funs can raise.
main() ->
    p([apply(?MODULE, f, []), apply(?MODULE, f, [1]), apply(fun f/1, [2]), apply(fun() -> z end, [])]),
    M = ?MODULE, F = f,
    p([M:F(), M:F(3), erlang:apply(lists, sum, [[1, 2, 3]]), apply(erlang, length, [[a]])]),
    Args = [1, 2, 3],
    p(apply(?MODULE, f, Args)),
    Errs = [fun() -> apply(?MODULE, nope, []) end,
            fun() -> (fun(X) -> X end)(1, 2) end,
            fun() -> (list_to_atom("notfun"))(1) end,
            fun() -> apply(?MODULE, f, [1 | x]) end,
            fun() -> apply(42, f, []) end,
            fun() -> M:nope(1) end,
            fun() -> erlang:apply(fun f/1, [a, b]) end],
    [p(try E() catch C:R -> {C, R} end) || E <- Errs],
    ok.

f() -> zero.
f(X) -> {one, X}.
f(A, B, C) -> A + B + C.

p(X) -> io:format("~p~n", [X]).
