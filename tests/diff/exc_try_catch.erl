-module(exc_try_catch).
-export([main/0]).

%% try/catch/after, catch expressions, and the three classes.
main() ->
    p([classify(fun() -> throw(ball) end), classify(fun() -> exit(bye) end),
       classify(fun() -> error(oops) end), classify(fun() -> ok end)]),
    p([catch throw(x), catch exit(y), element(1, catch error(z)), catch 1 + 1]),
    p(try ok of ok -> matched; _ -> other catch _:_ -> caught end),
    p(try throw(1) catch throw:N when N > 0 -> positive; throw:_ -> other end),
    after_order(),
    p(nested()),
    p(try try error(inner) catch error:inner -> throw(outer) end catch throw:O -> {rethrown, O} end),
    p(try error({a, b}) catch error:{a, X} -> X end),
    p([rethrow(C) || C <- [error, exit, throw]]),
    p(try erlang:raise(exit, raised, []) catch exit:R -> R end),
    ok.

classify(F) ->
    try F() of
        V -> {value, V}
    catch
        throw:T -> {thrown, T};
        exit:E -> {exited, E};
        error:R -> {error, R}
    end.

after_order() ->
    Self = self(),
    try
        put(log, [start]),
        throw(stop)
    catch
        throw:stop -> put(log, [caught | get(log)])
    after
        put(log, [after_ran | get(log)])
    end,
    p({Self =:= self(), lists:reverse(get(log))}),
    p(try 42 after put(x, 1) end).

nested() ->
    try
        try error(deep)
        after put(inner_after, yes)
        end
    catch
        error:deep -> {caught_deep, get(inner_after)}
    end.

rethrow(Class) ->
    try
        try erlang:raise(Class, r, []) catch C:R:S -> erlang:raise(C, {again, R}, S) end
    catch C2:R2 -> {C2, R2}
    end.

p(X) -> io:format("~p~n", [X]).
