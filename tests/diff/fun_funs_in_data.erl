-module(fun_funs_in_data).
-export([main/0]).

%% Funs stored in data, sent through term_to_binary, compared and sorted.
main() ->
    Table = [{double, fun(X) -> 2 * X end}, {square, fun(X) -> X * X end}, {neg, fun erlang:'-'/1}],
    io:format("~w~n", [[{Name, F(7)} || {Name, F} <- Table]]),
    Ext = fun lists:sum/1,
    Copy = binary_to_term(term_to_binary(Ext)),
    io:format("~w~n", [[Copy([1, 2, 3]), Copy =:= Ext, erlang:fun_info(Copy, arity)]]),
    Local = fun(X) -> {wrapped, X} end,
    Local2 = binary_to_term(term_to_binary(Local)),
    io:format("~w~n", [[Local2(1), Local2 =:= Local]]),
    io:format("~w~n", [lists:sort([fun lists:sum/1, fun erlang:abs/1, fun lists:max/1])]),
    io:format("~w~n", [[is_function(F, 1) || {_, F} <- Table]]),
    io:format("~p~n", [[erlang:fun_info(fun erlang:abs/1, K) || K <- [module, name, arity, type, env]]]),
    ok.
