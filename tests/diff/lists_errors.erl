-module(lists_errors).
-export([main/0]).

%% Errors from list BIFs and lists functions, with their stack traces.
main() ->
    Cases = [fun() -> lists:nth(0, [a]) end,
             fun() -> lists:sublist([1, 2], -1) end,
             fun() -> lists:seq(5, 1) end,
             fun() -> lists:reverse(not_a_list()) end,
             fun() -> lists:member(x, not_a_list()) end,
             fun() -> lists:keyfind(x, 1, not_a_list()) end,
             fun() -> lists:max([]) end,
             fun() -> lists:last([]) end,
             fun() -> lists:split(5, [1]) end,
             fun() -> length(not_a_list()) end,
             fun() -> tl([]) end,
             fun() -> [1 | 2] ++ [3] end,
             fun() -> [1, 2] -- not_a_list() end,
             fun() -> lists:zip([1], [1, 2]) end],
    [io:format("~p~n", [try F() catch C:R:S -> {C, R, hd(S)} end]) || F <- Cases],
    ok.

not_a_list() -> list_to_atom("nope").
