%% Fixture: closures, local and external funs, apply and higher-order calls.
-module(disasm_funs).
-export([adder/1, compose/2, apply_it/2, ext/0, local/0, mapper/1, dyn/3, nested/1]).

adder(N) -> fun(X) -> X + N end.
compose(F, G) -> fun(X) -> F(G(X)) end.
apply_it(F, X) -> F(X) + 1.
ext() -> fun lists:reverse/1.
local() -> fun adder/1.
mapper(L) -> lists:map(fun(X) -> {X, X} end, L).
dyn(M, F, A) -> apply(M, F, A) ++ M:F(A).
nested(N) -> F = fun(A) -> fun(B) -> A + B + N end end, (F(1))(2).
