-module(tuples_basic).
-export([main/0]).

%% Tuple BIFs and tuple patterns.
main() ->
    T = {a, 2, "three", {4}, [5]},
    p([tuple_size(T), size(T), element(1, T), element(5, T), setelement(2, T, two)]),
    p([erlang:make_tuple(3, x), erlang:make_tuple(4, 0, [{2, a}, {4, b}]), {}, {{}}]),
    p([erlang:append_element(T, six), erlang:insert_element(1, T, zero),
       erlang:delete_element(3, T), tuple_to_list(T), list_to_tuple([1, 2])]),
    p([is_tuple(T), is_tuple([]), T =:= {a, 2, "three", {4}, [5]}, {1, 2} < {1, 3}, {2} < {1, 1}]),
    {A, B, _, {D}, [E]} = T,
    p([A, B, D, E]),
    p([try element(0, T) catch C:R -> {C, R} end, try element(6, T) catch C2:R2 -> {C2, R2} end,
       try setelement(9, T, x) catch C3:R3 -> {C3, R3} end, try tuple_size([]) catch C4:R4 -> {C4, R4} end]),
    Big = list_to_tuple(lists:seq(1, 300)),
    p([tuple_size(Big), element(300, Big), element(150, setelement(150, Big, x))]),
    p(lists:keysort(2, [{x, 3}, {y, 1}, {z, 2}])),
    ok.

p(X) -> io:format("~p~n", [X]).
