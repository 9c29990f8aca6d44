%% ETS basics: each table type, insert/lookup/delete, traversal, counters,
%% errors. Set and bag contents are sorted before printing.
-module(ets_basic).
-export([main/0]).

main() ->
    lists:foreach(fun kind/1, [set, ordered_set, bag, duplicate_bag]),
    traversal(),
    counters(),
    errors(),
    ok.

kind(Kind) ->
    T = ets:new(tab, [Kind]),
    true = ets:insert(T, [{a, 1}, {b, 2}, {a, 3}, {c, 4}, {a, 1}]),
    io:format("~p: size ~p~n", [Kind, ets:info(T, size)]),
    io:format("  all ~p~n", [lists:sort(ets:tab2list(T))]),
    io:format("  lookup a ~p~n", [lists:sort(ets:lookup(T, a))]),
    io:format("  member c ~p, member z ~p~n", [ets:member(T, c), ets:member(T, z)]),
    io:format("  insert_new ~p ~p~n", [ets:insert_new(T, {a, 9}), ets:insert_new(T, {d, 9})]),
    ets:delete(T, b),
    ets:delete_object(T, {a, 1}),
    io:format("  after deletes ~p~n", [lists:sort(ets:tab2list(T))]),
    io:format("  take d ~p~n", [ets:take(T, d)]),
    io:format("  match ~p~n", [lists:sort(ets:match(T, {'$1', '$2'}))]),
    io:format("  match_object ~p~n", [lists:sort(ets:match_object(T, {'_', 4}))]),
    io:format("  info ~p~n", [[ets:info(T, I) || I <- [type, keypos, protection, named_table, size]]]),
    ets:delete_all_objects(T),
    io:format("  emptied ~p~n", [ets:tab2list(T)]),
    true = ets:delete(T),
    io:format("  deleted ~p~n", [ets:info(T)]).

traversal() ->
    T = ets:new(ordered, [ordered_set, named_table]),
    ets:insert(T, [{N, N * N} || N <- [10, 3, 7, 1, 5]]),
    Walk = fun W('$end_of_table') -> []; W(K) -> [K | W(ets:next(T, K))] end,
    io:format("walk ~p~n", [Walk(ets:first(T))]),
    io:format("last ~p prev ~p~n", [ets:last(T), ets:prev(T, ets:last(T))]),
    io:format("foldl ~p~n", [ets:foldl(fun({K, V}, A) -> [{K, V} | A] end, [], T)]),
    io:format("foldr ~p~n", [ets:foldr(fun({K, _}, A) -> [K | A] end, [], T)]),
    io:format("mixed keys ~p~n", [mixed()]),
    ets:delete(T).

mixed() ->
    T = ets:new(m, [ordered_set]),
    ets:insert(T, [{K} || K <- [b, 2, {x}, "s", 1.5, <<"bin">>, [], a, -3, self()]]),
    [case K of P when is_pid(P) -> pid; _ -> K end || {K} <- ets:tab2list(T)].

counters() ->
    T = ets:new(c, [public]),
    ets:insert(T, {hits, 0, 100}),
    Incs = [ets:update_counter(T, hits, 1) || _ <- lists:seq(1, 5)],
    io:format("counter ~p~n", [Incs]),
    io:format("pair ~p~n", [ets:update_counter(T, hits, [{2, 10}, {3, -1}])]),
    io:format("threshold ~p~n", [ets:update_counter(T, hits, {2, 100, 50, 0})]),
    io:format("default ~p~n", [ets:update_counter(T, new, {2, 7}, {new, 0})]),
    io:format("element ~p ~p~n", [ets:update_element(T, hits, {3, done}), ets:lookup(T, hits)]),
    ok.

errors() ->
    T = ets:new(e, [set]),
    Try = fun(F) -> try F() catch C:R -> {C, R} end end,
    io:format("errors ~p~n", [[Try(F) || F <- [
        fun() -> ets:insert(T, not_a_tuple) end,
        fun() -> ets:insert(T, {}) end,
        fun() -> ets:lookup(nonexistent_table, k) end,
        fun() -> ets:new(e2, [nonsense]) end,
        fun() -> ets:update_counter(T, missing, 1) end,
        fun() -> ets:lookup_element(T, missing, 2) end,
        fun() -> ets:new(dup, [named_table]), ets:new(dup, [named_table]) end,
        fun() -> ets:select(T, [{'_', [], ['$1']}]) end
    ]]]).
