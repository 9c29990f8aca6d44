%% Call tracing with {return_trace}: call and return_from events of
%% exported functions, through plain, tail and nested external calls, a
%% call that raises (caught), and a process whose first function is
%% traced. Pids are named.
-module(trace_call_return).
-export([main/0, double/1, twice/1, fail/0, top/0]).

main() ->
    Self = self(),
    P = spawn(fun() -> worker(Self) end),
    1 = erlang:trace(P, true, [call]),
    Ms = [{'_', [], [{return_trace}]}],
    io:format("~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, Ms, [])]),
    P ! go,
    receive done -> ok end,
    trace_names:print(#{P => p, Self => main}).

worker(Main) ->
    receive go -> ok end,
    A = ?MODULE:double(2),
    B = ?MODULE:twice(A),
    C = (catch ?MODULE:fail()),
    Main ! done,
    {A, B, C}.

double(N) -> N * 2.

twice(N) -> ?MODULE:double(?MODULE:double(N)).

fail() -> erlang:error(on_purpose).

top() -> ok.
