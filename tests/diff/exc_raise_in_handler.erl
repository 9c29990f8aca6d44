%% An exception raised in a handler after one caught from a call (try
%% ... catch, try ... of ... catch, catch Expr): its stack trace starts at
%% the handler's function, with no frame for the call that failed before;
%% library functions that check their arguments this way (os:cmd/2's
%% options) raise with the trace erl gives.
-module(exc_raise_in_handler).
-export([main/0]).

main() ->
    [io:format("~p~n", [trace(F)]) || F <- [fun() -> a(x) end, fun() -> b(x) end,
                                            fun() -> c(x) end, fun() -> d(x) end,
                                            fun() -> os:cmd("echo hi", []) end,
                                            fun() -> os:cmd("echo hi", #{max_size => bad}) end]],
    ok.

trace(F) ->
    try F() of
        V -> {returned, V}
    catch
        Class:Reason:Stack -> {Class, Reason, Stack}
    end.

a(X) -> try inner(X) catch error:R -> erlang:error(R) end.
b(X) -> try inner(X) of V -> V catch error:R -> erlang:error(R, [X], [{error_info, #{}}]) end.
c(X) -> case catch inner(X) of {'EXIT', _} -> erlang:error(badarg); V -> V end.
d(X) -> try inner(X) catch error:_ -> element(2, {X}) end.

inner(X) -> _ = element(1, X), ok.
