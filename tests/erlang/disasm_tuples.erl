%% Fixture: tuple construction, element access, setelement and records.
-module(disasm_tuples).
-export([make/3, first/1, swap/1, rec/1, upd/2, nested/1]).
-record(pt, {x = 0, y = 0, z = 0, label = none}).

make(A, B, C) -> {A, B, C, {A, B}}.
first({A, _, _}) -> A.
swap({A, B}) -> {B, A}.
rec(X) -> #pt{x = X, y = X + 1}.
upd(P, V) -> P#pt{x = V, label = V}.
nested(T) -> {element(2, T), setelement(1, T, ok), (T#pt.z)}.
