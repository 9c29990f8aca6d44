-module(lists_basic).
-export([main/0]).

%% The everyday lists functions.
main() ->
    L = [5, 3, 8, 1, 9, 2, 7],
    p([length(L), hd(L), tl(L), lists:reverse(L), lists:last(L), lists:nth(3, L)]),
    p([lists:append([[1], [2, 3], []]), L ++ [10], L -- [3, 9, 42], [1, 2, 1, 2] -- [2]]),
    p([lists:sublist(L, 3), lists:sublist(L, 2, 3), lists:nthtail(4, L)]),
    p([lists:member(8, L), lists:member(4, L), lists:delete(8, L), lists:duplicate(3, x)]),
    p([lists:max(L), lists:min(L), lists:sum(L), lists:flatten([1, [2, [3, [4]], []], 5])]),
    p([lists:seq(1, 10), lists:seq(10, 1, -3), lists:seq(1, 0), lists:seq(2, 20, 5)]),
    p([lists:split(3, L), lists:splitwith(fun(X) -> X > 2 end, L),
       lists:partition(fun(X) -> X rem 2 == 0 end, L)]),
    p([lists:takewhile(fun(X) -> X > 2 end, L), lists:dropwhile(fun(X) -> X > 2 end, L)]),
    p([lists:zip([1, 2, 3], [a, b, c]), lists:unzip([{1, a}, {2, b}]), lists:zip3([1], [2], [3])]),
    p([lists:prefix([5, 3], L), lists:suffix([7], L), lists:subtract(L, [1]), lists:join(0, [1, 2, 3])]),
    p([lists:enumerate([a, b, c]), lists:uniq([3, 1, 3, 2, 1]), lists:droplast(L)]),
    p([lists:concat([a, "b", 1, 2.5]), lists:flatlength([1, [2, [3]]]), lists:nthtail(0, [])]),
    p([erlang:length([]), tuple_to_list({a, b}), list_to_tuple([1, 2])]),
    p([try lists:nth(10, L) catch C:R -> {C, R} end, try hd([]) catch C2:R2 -> {C2, R2} end,
       try length([1 | 2]) catch C3:R3 -> {C3, R3} end]),
    ok.

p(X) -> io:format("~p~n", [X]).
