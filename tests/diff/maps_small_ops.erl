-module(maps_small_ops).
-export([main/0]).

%% Small (flat) maps: construction, update, lookup and the maps module.
%% Keys are atoms no erl boot creates (k_a, ...): from OTP 26 on a small
%% map keeps atom keys in atom-index order, and the atoms erl's boot
%% creates after its first few thousand come in a different order from
%% run to run; the program's own atoms come in its atom chunk's order.
main() ->
    M = #{k_a => 1, k_b => 2, k_c => 3},
    p([M, M#{k_d => 4}, M#{k_a := 10}, maps:put(k_b, k_x, M), maps:remove(k_b, M), maps:remove(k_z, M)]),
    p([maps:get(k_a, M), maps:get(k_z, M, default), maps:find(k_b, M), maps:find(k_z, M),
       maps:is_key(k_c, M), map_size(M), maps:size(#{})]),
    p([maps:keys(M), maps:values(M), maps:to_list(M), maps:from_list([{k_x, 1}, {k_x, 2}, {k_y, 3}])]),
    p([maps:merge(M, #{k_c => 30, k_e => 5}), maps:with([k_a, k_c, k_z], M), maps:without([k_a], M)]),
    p([maps:update(k_a, 0, M), maps:update_with(k_a, fun(V) -> V * 100 end, M),
       maps:update_with(k_q, fun(V) -> V end, 7, M)]),
    p([maps:take(k_a, M), maps:take(k_z, M), maps:from_keys([k_x, k_y], 0)]),
    p([#{1 => k_a, 1.0 => k_b}, #{<<"k_k">> => k_v, "k_k" => k_w, {k_t} => k_u, [] => k_e}]),
    p([maps:filter(fun(_, V) -> V > 1 end, M), maps:map(fun(K, V) -> {K, V} end, M)]),
    p(maps:fold(fun(K, V, Acc) -> [{K, V} | Acc] end, [], M)),
    p([maps:merge_with(fun(_K, A, B) -> A + B end, M, #{k_a => 5, k_f => 6}),
       maps:groups_from_list(fun(X) -> X rem 2 end, [1, 2, 3, 4, 5])]),
    p([M =:= #{k_c => 3, k_b => 2, k_a => 1}, M == #{k_a => 1.0, k_b => 2, k_c => 3},
       #{k_a => 1} < #{k_b => 1}, #{k_a => 2} > #{k_a => 1}, #{} < #{k_a => 1},
       #{k_b => 1} < #{k_a => 1, k_c => 1}]),
    p(lists:sort([#{k_b => 1}, #{k_a => 2}, #{k_a => 1, k_b => 1}, #{}, #{1 => k_x}, #{k_a => 1}])),
    %% erts's built-in atoms come first, in erts's order, then the program's.
    p([#{zeta_key => 1, type => 2, size => 3, alpha_key => 4, module => 5},
       maps:keys(maps:from_list([{K, 0} || K <- [value, k_new, reason, error, ok, false]]))]),
    ok.

p(X) -> io:format("~k_p~k_n", [X]).
