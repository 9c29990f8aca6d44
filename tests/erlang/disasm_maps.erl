%% Fixture: map construction, update, matching and BIFs.
-module(disasm_maps).
-export([new/2, put/3, upd/2, get/1, keys/1, match/1, big/1]).

new(K, V) -> #{K => V, a => 1}.
put(M, K, V) -> M#{K => V}.
upd(M, V) -> M#{a := V, b := V}.
get(#{a := A, b := B}) -> A + B;
get(#{}) -> none.
keys(M) -> {maps:keys(M), map_size(M), is_map_key(a, M), map_get(a, M)}.
match(M) when is_map(M), map_size(M) > 2 -> big;
match(_) -> small.
big(X) -> #{a => X, b => X, c => 3, d => "four", e => {5}}.
