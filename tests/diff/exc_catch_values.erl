-module(exc_catch_values).
-export([main/0]).

%% Old-style catch: the value of each class, nested catches, and catch in
%% guards-free positions.
main() ->
    io:format("~p~n", [[catch throw(1), catch 2, catch exit(three)]]),
    {'EXIT', {R, [Top | _]}} = (catch element(9, {})),
    io:format("~p~n", [{R, Top}]),
    io:format("~p~n", [catch catch throw(x)]),
    io:format("~p~n", [(catch (catch error(e)))]),
    io:format("~p~n", [[catch F() || F <- [fun() -> ok end, fun() -> exit(normal) end]]]),
    Self = catch self(),
    io:format("~p~n", [is_pid(Self)]),
    io:format("~p~n", [catch lists:map(fun(X) -> 10 div X end, [5, 0])]),
    ok.
