-module(maps_errors).
-export([main/0]).

%% Map errors: badmap, badkey, and failed matches.
main() ->
    M = #{a => 1},
    Cases = [fun() -> maps:get(b, M) end,
             fun() -> maps:get(a, not_a_map()) end,
             fun() -> (not_a_map())#{a => 1} end,
             fun() -> M#{b := 2} end,
             fun() -> maps:update(b, 1, M) end,
             fun() -> maps:remove(a, not_a_map()) end,
             fun() -> #{b := _} = M end,
             fun() -> map_size(not_a_map()) end,
             fun() -> maps:from_list([a]) end,
             fun() -> maps:keys(not_a_map()) end,
             fun() -> maps:merge(M, not_a_map()) end,
             fun() -> maps:fold(fun(_, _, _) -> ok end, [], not_a_map()) end],
    [io:format("~p~n", [try F() catch C:R -> {C, R} end]) || F <- Cases],
    ok.

not_a_map() -> list_to_atom("nomap").
