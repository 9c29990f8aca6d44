-module(maps_small_ops).
-export([main/0]).

%% Small (flat) maps: construction, update, lookup and the maps module.
main() ->
    M = #{a => 1, b => 2, c => 3},
    p([M, M#{d => 4}, M#{a := 10}, maps:put(b, x, M), maps:remove(b, M), maps:remove(z, M)]),
    p([maps:get(a, M), maps:get(z, M, default), maps:find(b, M), maps:find(z, M),
       maps:is_key(c, M), map_size(M), maps:size(#{})]),
    p([maps:keys(M), maps:values(M), maps:to_list(M), maps:from_list([{x, 1}, {x, 2}, {y, 3}])]),
    p([maps:merge(M, #{c => 30, e => 5}), maps:with([a, c, z], M), maps:without([a], M)]),
    p([maps:update(a, 0, M), maps:update_with(a, fun(V) -> V * 100 end, M),
       maps:update_with(q, fun(V) -> V end, 7, M)]),
    p([maps:take(a, M), maps:take(z, M), maps:from_keys([x, y], 0)]),
    p([#{1 => a, 1.0 => b}, #{<<"k">> => v, "k" => w, {t} => u, [] => e}]),
    p([maps:filter(fun(_, V) -> V > 1 end, M), maps:map(fun(K, V) -> {K, V} end, M)]),
    p(maps:fold(fun(K, V, Acc) -> [{K, V} | Acc] end, [], M)),
    p([maps:merge_with(fun(_K, A, B) -> A + B end, M, #{a => 5, f => 6}),
       maps:groups_from_list(fun(X) -> X rem 2 end, [1, 2, 3, 4, 5])]),
    p([M =:= #{c => 3, b => 2, a => 1}, M == #{a => 1.0, b => 2, c => 3},
       #{a => 1} < #{b => 1}, #{a => 2} > #{a => 1}, #{} < #{a => 1},
       #{b => 1} < #{a => 1, c => 1}]),
    p(lists:sort([#{b => 1}, #{a => 2}, #{a => 1, b => 1}, #{}, #{1 => x}, #{a => 1}])),
    ok.

p(X) -> io:format("~p~n", [X]).
