%% Local call patterns: calls through call, call_only and call_last within
%% the module, a local fun, external calls of the same functions, and
%% the return_to flag (one message per chain of tail calls, and the
%% function that catches an exception). Global patterns do not see local
%% calls. Pids are named.
-module(trace_local_calls).
-export([main/0, top/0, thrower/0, entry/1]).

top() -> A = f(2), B = apply_fun(fun(Y) -> Y + 1 end, A), B.
f(X) -> loc(X) + 1.
loc(0) -> 0;
loc(X) -> tail(X).
tail(X) -> inner(X) * 2.
inner(X) -> X.
apply_fun(F, X) -> F(X).
thrower() -> catch deep(1), ok.
deep(X) -> deeper(X), x.
deeper(_) -> throw(t).
entry(X) -> f(X).

run(Flags, Ms, PatternFlags, What) ->
    Self = self(),
    W = spawn(fun() -> receive go -> ok end, ?MODULE:What(), Self ! done end),
    1 = erlang:trace(W, true, Flags),
    N = erlang:trace_pattern({?MODULE, '_', '_'}, Ms, PatternFlags),
    io:format("~p ~p ~p ~p: ~p~n", [Flags, Ms, PatternFlags, What, N > 0]),
    W ! go,
    receive done -> ok end,
    trace_names:print(#{W => w, Self => main}),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [local]),
    erlang:trace_pattern({?MODULE, '_', '_'}, false, [global]).

main() ->
    run([call], true, [local], top),
    run([call], true, [global], top),
    run([call, return_to], true, [local], top),
    run([call, return_to], [{'_', [], [{return_trace}]}], [local], top),
    run([call, return_to], true, [local], thrower),
    run([call, return_to], [{'_', [], [{exception_trace}]}], [local], thrower),
    run([call, arity], true, [local], top),
    run([call], [{['$1'], [{'>', '$1', 1}], [{message, {caller}}]}], [local], top),
    run([call], true, [local], thrower).
