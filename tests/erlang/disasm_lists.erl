%% Fixture: list construction, recursion, comprehensions and strings.
-module(disasm_lists).
-export([len/1, rev/1, squares/1, concat/2, str/0, zip/2, sum/1, hd_tl/1]).

len([]) -> 0;
len([_ | T]) -> 1 + len(T).
rev(L) -> rev(L, []).
rev([], Acc) -> Acc;
rev([H | T], Acc) -> rev(T, [H | Acc]).
squares(L) -> [X * X || X <- L, X rem 2 =:= 0].
concat(A, B) -> A ++ B -- [x].
str() -> "hello, world".
zip([A | As], [B | Bs]) -> [{A, B} | zip(As, Bs)];
zip(_, _) -> [].
sum(L) -> lists:foldl(fun erlang:'+'/2, 0, L).
hd_tl(L) -> {hd(L), tl(L), [1, 2, 3 | L]}.
