-module(lists_sort).
-export([main/0]).

%% Sorting: sort/usort/keysort/merge on mixed, stable and large inputs.
main() ->
    R = rand_list(200, 7),
    p(lists:sort(R)),
    p(lists:usort(R)),
    p(lists:sort(fun(A, B) -> A >= B end, lists:sublist(R, 30))),
    T = [{b, 2, x}, {a, 3, y}, {b, 1, z}, {a, 1, w}, {c, 0, v}, {a, 3, u}],
    p([lists:keysort(1, T), lists:keysort(2, T), lists:ukeysort(1, T)]),
    p([lists:merge([1, 4, 9], [2, 3, 10]), lists:merge([[1, 5], [2, 6], [0]]),
       lists:umerge([1, 2, 3], [2, 3, 4]), lists:merge3([1], [3], [2])]),
    p(lists:sort([b, 1, "a", {x}, 2.0, <<"b">>, [], a, 1.0])),
    p(lists:reverse(lists:sort(["pear", "apple", "fig", "banana"]))),
    p(lists:keymerge(1, [{1, a}, {3, c}], [{2, b}])),
    ok.

%% A deterministic pseudo-random list (a linear congruential generator).
rand_list(0, _) -> [];
rand_list(N, S) -> S2 = (S * 1103515245 + 12345) rem 2147483648, [S2 rem 1000 | rand_list(N - 1, S2)].

p(X) -> io:format("~w~n", [X]).
