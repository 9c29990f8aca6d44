-module(fmt_p_w).
-export([main/0]).

%% ~p and ~w on nested terms, line breaking, and ~P/~W depth limits.
main() ->
    T = {record_like, [1, 2, 3], "a string", <<"bin">>, #{key => [value, {nested, tuple}]},
         lists:seq(1, 30), 3.25, -17, 'quoted atom', [], {}},
    io:format("~w~n", [T]),
    io:format("~p~n", [T]),
    io:format("~P~n", [T, 5]),
    io:format("~W~n", [T, 4]),
    io:format("~p~n", [[{I, lists:duplicate(I, $x)} || I <- lists:seq(1, 12)]]),
    io:format("~70p~n", [lists:seq(1, 40)]),
    io:format("~p ~p ~p~n", ["abc", [97, 98, 0], [1 | 2]]),
    io:format("~w ~w~n", ["abc", <<"abc">>]),
    io:format("~p~n", [<<1, 2, 3, 200>>]),
    io:format("~p~n", [[<<"x">>, <<>>, <<1:3>>, <<"long binary with spaces">>]]),
    io:format("~p~n", [{'Aa', a_b, 'b-c', '42', 'if', 'ok'}]),
    io:format("~p~n", [lists:duplicate(6, {some, reasonably, long, tuple, with, atoms})]),
    io:format("~lp~n", [[65, 66]]),
    io:format("~p~n", [[[[[[deep]]]]]]),
    ok.
