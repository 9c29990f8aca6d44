-module(exc_after_and_nesting).
-export([main/0]).

%% Exceptions raised in after blocks, in catch handlers, in funs inside
%% list comprehensions, and traces through lists:map.
main() ->
    t(fun() -> try throw(first) after erlang:error(from_after) end end),
    t(fun() -> try error(a) catch error:a -> error(b) end end),
    t(fun() -> [begin X = 1 / Y, X end || Y <- [1, 0]] end),
    t(fun() -> lists:map(fun(X) -> element(X, {a}) end, [1, 2]) end),
    t(fun() -> lists:foldl(fun(X, _) -> X = nomatch end, 0, [1]) end),
    t(fun() -> maps:map(fun(_, V) -> V + a end, #{k => 1}) end),
    t(fun() -> catch_inside() end),
    ok.

catch_inside() ->
    R = (catch error(inside)),
    {caught, element(1, element(2, R))}.

t(F) ->
    try F() of
        V -> io:format("value ~p~n", [V])
    catch
        C:R:S -> io:format("~p~n", [{C, R, S}])
    end.
