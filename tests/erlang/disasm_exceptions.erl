%% Fixture: try/catch/after, catch, raise, throw, error and exit.
-module(disasm_exceptions).
-export([safe_div/2, old_catch/1, with_after/1, rethrow/1, st/0, throws/1]).

safe_div(A, B) ->
    try A div B of
        R -> {ok, R}
    catch
        error:badarith -> {error, badarith};
        throw:T -> {thrown, T}
    end.
old_catch(X) -> catch X + 1.
with_after(F) ->
    try F() after io:format("done~n") end.
rethrow(F) ->
    try F() catch C:R:S -> erlang:raise(C, R, S) end.
st() -> try error(x) catch _:_:S -> S end.
throws(1) -> throw(one);
throws(2) -> error(two);
throws(3) -> exit(three);
throws(N) -> erlang:error({bad, N}, [N]).
