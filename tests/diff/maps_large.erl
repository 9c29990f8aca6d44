-module(maps_large).
-export([main/0]).

%% Large (hashed) maps with integer, tuple and binary keys: size, lookup,
%% update, and sorted listings (iteration order is shown sorted only).
main() ->
    M = maps:from_list([{I, I * I} || I <- lists:seq(1, 200)]),
    p([map_size(M), maps:get(150, M), maps:get(201, M, none), maps:is_key(33, M)]),
    M2 = lists:foldl(fun(I, Acc) -> maps:remove(I, Acc) end, M, lists:seq(1, 200, 3)),
    p([map_size(M2), lists:sum(maps:values(M2)), lists:sort(maps:keys(M2)) -- lists:seq(1, 150)]),
    M3 = M2#{{tuple, 1} => t, <<"bin">> => b, "str" => s, 1.5 => f},
    p([map_size(M3), maps:get({tuple, 1}, M3), maps:get(<<"bin">>, M3), maps:get(1.5, M3)]),
    p(lists:sublist(lists:sort(maps:to_list(M3)), 10)),
    M4 = maps:map(fun(K, V) when is_integer(K) -> V - K; (_, V) -> V end, M3),
    p(lists:sum([V || {K, V} <- maps:to_list(M4), is_integer(K)])),
    Small = maps:filter(fun(K, _) -> is_integer(K) andalso K < 10 end, M3),
    p(Small),
    p([M =:= maps:from_list(lists:reverse(maps:to_list(M))), M == M2, M2 =:= M2#{}]),
    Atoms = maps:from_list([{list_to_atom("k" ++ integer_to_list(I)), I} || I <- lists:seq(1, 40)]),
    p([map_size(Atoms), maps:get(k17, Atoms), lists:sort(maps:keys(Atoms))]),
    p(maps:fold(fun(_, V, Acc) -> V + Acc end, 0, Atoms)),
    p(maps:size(maps:merge(M, Atoms))),
    ok.

p(X) -> io:format("~w~n", [X]).
