-module(maps_iterator_ordered).
-export([main/0]).

%% Ordered map iterators (maps:iterator/2, OTP 26 and later; undef on 25):
%% maps:next/1, maps:fold/3 and maps:to_list/1 over them (and over an
%% unordered iterator: maps:to_list/1 takes one from OTP 26 on; its order
%% is unspecified, and from OTP 26 on small maps order atoms by their index
%% in the atom table, so the list is sorted), and erts_internal:cmp_term/2,
%% which sorts them. A failure shows its class and reason.
main() ->
    Small = #{b => 2, a => 1, c => 3, 1 => one, 1.0 => float, "s" => str},
    Big = maps:from_list([{N, N * N} || N <- lists:seq(1, 100)]),
    Pairs = fun(K, V, Acc) -> [{K, V} | Acc] end,
    t(fun() -> walk(maps:next(maps:iterator(Small, ordered))) end),
    t(fun() -> walk(maps:next(maps:iterator(Small, reversed))) end),
    t(fun() -> walk(maps:next(maps:iterator(Small, fun(A, B) -> A >= B end))) end),
    t(fun() -> maps:fold(Pairs, [], maps:iterator(Small, ordered)) end),
    t(fun() -> maps:fold(Pairs, [], maps:iterator(#{}, ordered)) end),
    t(fun() -> maps:to_list(maps:iterator(Big, ordered)) =:= lists:sort(maps:to_list(Big)) end),
    t(fun() -> maps:next(maps:iterator(#{}, ordered)) end),
    t(fun() -> lists:sum([V || {_, V} <- maps:fold(Pairs, [], maps:iterator(Big, reversed))]) end),
    t(fun() -> lists:sort(maps:to_list(maps:iterator(Small))) end),
    t(fun() -> [erts_internal:cmp_term(A, B) || {A, B} <- [{1, 1.0}, {1.0, 1}, {a, a}, {a, 1}]] end),
    ok.

walk(none) -> [];
walk({K, V, I}) -> [{K, V} | walk(maps:next(I))].

t(F) ->
    R = try F() catch Class:Reason -> {Class, Reason} end,
    io:format("~p~n", [R]).
