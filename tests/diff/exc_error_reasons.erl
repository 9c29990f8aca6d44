-module(exc_error_reasons).
-export([main/0]).

%% The run-time error reasons the BEAM raises.
main() ->
    Cases = [fun() -> {a} = id({b}) end,
             fun() -> case id(3) of 1 -> one end end,
             fun() -> V = id(1), if V > 2 -> big end end,
             fun() -> try id(x) of y -> y catch _:_ -> never end end,
             fun() -> one_clause(id(2)) end,
             fun() -> (id(fun(X) -> X end))(1, 2) end,
             fun() -> (id(notfun))() end,
             fun() -> id(a) + 1 end,
             fun() -> atom_to_list(id(1)) end,
             fun() -> hd(id([])) end,
             fun() -> element(5, id({1})) end,
             fun() -> list_to_atom(id(1)) end,
             fun() -> binary_to_term(id(<<1, 2>>)) end,
             fun() -> (id(#{}))#{a := 1} end,
             fun() -> [x || begin true = id(false) end] end,
             fun() -> <<X:8>> = id(<<>>), X end,
             fun() -> lists:foldl(id(notfun), 0, [1]) end,
             fun() -> erlang:error(custom, [1, 2]) end,
             fun() -> exit(normal) end,
             fun() -> throw({tuple, "payload"}) end],
    [io:format("~p~n", [try C() catch Cl:R -> {Cl, R} end]) || C <- Cases],
    ok.

one_clause(1) -> ok.

id(X) -> X.
