-module(fmt_depth_limits).
-export([main/0]).

%% ~P and ~W depth limits on every kind of term, and ~p line breaking of
%% maps, binaries and improper lists.
main() ->
    T = {a, [1, 2, 3, 4, 5], #{k1 => v1, k2 => [x, y, z], k3 => #{n => 1}}, <<1, 2, 3, 4, 5, 6>>,
         "a string here", [1, 2 | 3], {nested, {deeper, {deepest}}}},
    [io:format("~B: ~P~n", [D, T, D]) || D <- [1, 2, 3, 4, 6, 10]],
    [io:format("~B: ~W~n", [D, T, D]) || D <- [1, 2, 3, 5]],
    io:format("~p~n", [maps:from_list([{I, lists:duplicate(I, I)} || I <- lists:seq(1, 9)])]),
    io:format("~p~n", [list_to_binary(lists:seq(1, 120))]),
    io:format("~p~n", [lists:seq(1, 30) ++ improper]),
    io:format("~40p~n", [{some_atom, "a string that is long", [1, 2, 3], #{key => value}}]),
    io:format("~p~n", [{[], {}, #{}, <<>>, "", [[]], [{}]}]),
    io:format("~10P~n", [lists:seq(1, 100), 7]),
    ok.
