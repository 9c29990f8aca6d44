%% Call tracing with global trace patterns: erlang:trace_pattern/3 on
%% exported functions (exact and wildcard), the call flag on one process,
%% the arity flag, and turning patterns off. Pids are named.
-module(trace_call_global).
-export([main/0, work/1, helper/2]).

main() ->
    Self = self(),
    P = spawn(fun() -> worker(Self) end),
    1 = erlang:trace(P, true, [call]),
    io:format("exact: ~p~n", [erlang:trace_pattern({?MODULE, work, 1}, true, [global])]),
    io:format("wildcard: ~p~n", [erlang:trace_pattern({lists, reverse, '_'}, true, [])]),
    P ! go,
    receive done -> ok end,
    trace_names:print(#{P => p, Self => main}),
    io:format("off: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, [])]),
    1 = erlang:trace(P, true, [arity]),
    io:format("helper: ~p~n", [erlang:trace_pattern({?MODULE, helper, 2}, true, [global])]),
    P ! go,
    receive done -> ok end,
    trace_names:print(#{P => p, Self => main}),
    io:format("not loaded: ~p~n", [erlang:trace_pattern({no_such_module, f, 0}, true, [])]),
    io:format("bad: ~p~n", [catch erlang:trace_pattern({'_', f, 0}, true, [])]).

worker(Main) ->
    receive go -> ok end,
    R = ?MODULE:work(3),
    _ = lists:reverse([R, 2, 1]),
    _ = ?MODULE:helper(a, b),
    Main ! done,
    worker(Main).

work(N) when N > 0 -> work(N - 1);
work(0) -> done.

helper(A, B) -> {A, B}.
