%% Fixture: the remaining comparisons and type tests, match errors, apply,
%% map key tests, UTF-16/32 matching, NIF stubs and calls of known funs.
-module(disasm_misc).
-export([cmps/2, types/1, must/1, case_of/1, try_of/1, app/3, has_keys/1,
         utf/1, skip/1, first/1, known/1, nif/0]).
-nifs([nif/0]).

cmps(A, B) when A == B -> eq;
cmps(A, B) when A /= B, A >= B -> ge;
cmps(A, B) when A =/= B -> ne;
cmps(_, _) -> other.
types(X) when is_bitstring(X) -> bits;
types(X) when is_boolean(X) -> bool;
types(X) when is_number(X) -> num;
types(X) when is_port(X) -> port;
types(X) when is_reference(X) -> ref;
types(X) when is_function(X) -> fn;
types(_) -> other.
must(X) -> {ok, V} = X, V.
case_of(X) -> case X of 1 -> one; 2 -> two end.
try_of(F) -> try F() of ok -> ok catch _ -> caught end.
app(M, F, A) -> R = apply(M, F, A), R.
has_keys(#{a := _, b := _}) -> yes;
has_keys(_) -> no.
utf(<<C/utf16, R/binary>>) -> {C, R};
utf(<<C/utf32-little, R/binary>>) -> {C, R}.
skip(<<_/utf8, R/binary>>) -> R.
first(L) when hd(L) > 0 -> hd(L).
known(X) -> F = fun(Y) -> Y + X end, F(1) + (fun lists:sum/1)([X]).
nif() -> erlang:nif_error(not_loaded).
