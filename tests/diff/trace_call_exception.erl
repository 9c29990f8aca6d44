%% Call tracing with {exception_trace} (dbg's x): return_from on normal
%% returns, exception_from for each traced function an exception leaves,
%% innermost first, whether it is caught by a caller or ends the process.
-module(trace_call_exception).
-export([main/0, outer/1, inner/1, safe/1, crash/0]).

main() ->
    Self = self(),
    P = spawn(fun() -> worker(Self) end),
    Q = spawn(fun() -> receive go -> ?MODULE:crash() end end),
    1 = erlang:trace(P, true, [call]),
    1 = erlang:trace(Q, true, [call]),
    Ms = [{'_', [], [{exception_trace}]}],
    io:format("~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, Ms, [])]),
    P ! go,
    receive done -> ok end,
    Ref = monitor(process, Q),
    Q ! go,
    receive {'DOWN', Ref, process, Q, _} -> ok end,
    trace_names:print(#{P => p, Q => q, Self => main}).

worker(Main) ->
    receive go -> ok end,
    R1 = (catch ?MODULE:outer(fail)),
    R2 = ?MODULE:outer(ok),
    R3 = (catch ?MODULE:outer(throw)),
    Main ! done,
    {R1, R2, R3}.

outer(How) -> {outer, ?MODULE:inner(How)}.

inner(fail) -> erlang:error({bad, 1});
inner(throw) -> throw(thrown);
inner(ok) -> ?MODULE:safe(3).

safe(N) -> N + 1.

crash() -> exit(crashed).
