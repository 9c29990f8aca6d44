-module(tuples_records).
-export([main/0]).

-record(point, {x = 0, y = 0, label}).
-record(line, {from = #point{}, to = #point{x = 1}, style = solid :: atom()}).

%% Records: defaults, updates, matching, record_info and is_record.
main() ->
    P = #point{x = 3, label = "p"},
    L = #line{to = P},
    p([P, L, #point{}, P#point.x, L#line.to#point.label]),
    P2 = P#point{y = 7, label = undefined},
    p([P2, is_record(P2, point), is_record(P2, line), is_record(x, point)]),
    p([record_info(fields, point), record_info(size, line), #point.y]),
    #point{x = X, y = Y} = P2,
    p({X, Y}),
    p([dist(#point{x = 3, y = 4}), dist(#line{}), dist(other)]),
    p(lists:keyfind(3, #point.x, [P, P2])),
    p(try (list_to_atom("not_point"))#point.x catch C:R -> {C, R} end),
    ok.

dist(#point{x = X, y = Y}) -> math:sqrt(X * X + Y * Y);
dist(#line{from = F, to = T}) -> {F#point.x, T#point.x};
dist(_) -> undefined.

p(X) -> io:format("~p~n", [X]).
