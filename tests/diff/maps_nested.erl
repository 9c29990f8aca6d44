-module(maps_nested).
-export([main/0]).

%% Nested maps: deep updates, folds building maps, maps as accumulators.
main() ->
    Db = #{users => #{1 => #{name => "ann", tags => [a]}, 2 => #{name => "bob", tags => []}}},
    Db2 = update_in(Db, [users, 2, tags], fun(T) -> [new | T] end),
    p(Db2),
    p(get_in(Db2, [users, 1, name])),
    Words = string:tokens("the cat and the dog and the bird", " "),
    Counts = lists:foldl(fun(W, M) -> maps:update_with(W, fun(C) -> C + 1 end, 1, M) end, #{}, Words),
    p(Counts),
    p(lists:sort(fun({_, A}, {_, B}) -> A >= B end, maps:to_list(Counts))),
    Inverted = maps:fold(fun(K, V, Acc) -> maps:update_with(V, fun(L) -> lists:sort([K | L]) end, [K], Acc) end, #{}, Counts),
    p(Inverted),
    p(maps:iterator(#{}) =/= none),
    p(iter(maps:next(maps:iterator(#{x => 1, y => 2})))),
    ok.

update_in(M, [K], F) -> maps:update_with(K, F, M);
update_in(M, [K | Ks], F) -> M#{K := update_in(maps:get(K, M), Ks, F)}.

get_in(V, []) -> V;
get_in(M, [K | Ks]) -> get_in(maps:get(K, M), Ks).

iter(none) -> [];
iter({K, V, I}) -> [{K, V} | iter(maps:next(I))].

p(X) -> io:format("~p~n", [X]).
