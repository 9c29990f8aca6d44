-module(exc_stacktrace_basic).
-export([main/0]).

%% Full stack traces of caught exceptions: BIF frames with error_info,
%% function_clause with arguments, error/2 arguments, nested calls.
main() ->
    t(fun() -> atom_to_list(id(1)) end),
    t(fun() -> one_clause(id(7), x) end),
    t(fun() -> a(3) end),
    t(fun() -> erlang:error(why, [arg1, 2]) end),
    t(fun() -> [lists:nth(id(9), [1, 2])] end),
    t(fun() -> [maps:get(k, id(#{}))] end),
    t(fun() -> [id(1) div id(0)] end),
    t(fun() -> [throw(id(t))] end),
    t(fun() -> [exit(id(e))] end),
    t(fun() -> [lists:map(fun(X) -> X + a end, [1])] end),
    t(fun() -> [undefined_mod:f(1)] end),
    t(fun() -> {ok, _} = id(error) end),
    ok.

t(F) ->
    try F() of
        V -> io:format("value ~p~n", [V])
    catch
        C:R:S -> io:format("~p~n", [{C, R, S}])
    end.

a(N) -> [b(N)].
b(N) -> [c(N)].
c(N) -> {ok, _} = {N, id(c)}.

one_clause(1, _) -> ok.

id(X) -> X.
