-module(lists_keys).
-export([main/0]).

%% Key-value list functions and proplists.
main() ->
    L = [{a, 1}, {b, 2}, {c, 3}, {b, 4}],
    p([lists:keyfind(b, 1, L), lists:keyfind(z, 1, L), lists:keyfind(3, 2, L)]),
    p([lists:keymember(c, 1, L), lists:keysearch(b, 1, L), lists:keydelete(b, 1, L)]),
    p([lists:keyreplace(b, 1, L, {b, 20}), lists:keystore(d, 1, L, {d, 5}),
       lists:keystore(a, 1, L, {a, 0})]),
    p([lists:keytake(b, 1, L), lists:keytake(q, 1, L), lists:keymap(fun(X) -> X * 10 end, 2, L)]),
    P = [{x, 1}, y, {z, "s"}, {x, 2}],
    p([proplists:get_value(x, P), proplists:get_value(y, P), proplists:get_value(w, P, none),
       proplists:get_all_values(x, P), proplists:get_bool(y, P), proplists:lookup(z, P)]),
    p([proplists:delete(x, P), proplists:get_keys(P), proplists:is_defined(w, P)]),
    p(orddict:to_list(orddict:store(b, 1, orddict:from_list([{c, 3}, {a, 1}])))),
    p(lists:ukeymerge(1, [{1, a}, {2, b}], [{2, c}, {3, d}])),
    p(try lists:keyfind(a, 0, L) catch C:R -> {C, R} end),
    ok.

p(X) -> io:format("~p~n", [X]).
