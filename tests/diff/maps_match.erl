-module(maps_match).
-export([main/0]).

%% Map patterns in function heads, case and comprehensions.
main() ->
    Ms = [#{type => circle, r => 2}, #{type => rect, w => 3, h => 4},
          #{type => other}, #{r => 1}, #{type => circle, r => 1.5, colour => red}],
    [io:format("~p~n", [area(M)]) || M <- Ms],
    io:format("~p~n", [[K || #{type := K} <- Ms]]),
    Key = r,
    io:format("~p~n", [[V || #{Key := V} <- Ms]]),
    io:format("~p~n", [case #{a => 1, b => 2} of #{a := 1, b := B} -> B; _ -> no end]),
    ok.

area(#{type := circle, r := R}) -> {circle, R * R * 3};
area(#{type := rect, w := W, h := H}) -> {rect, W * H};
area(#{type := T}) -> {unknown, T};
area(_) -> none.
