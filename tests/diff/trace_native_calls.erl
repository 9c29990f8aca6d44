%% Local call tracing of functions beamr runs as native code. A traced
%% local call there runs the call-trace probe from native code (after
%% writing the process state back, reloading it after), so every pattern
%% option must see the process as the interpreter's call would: CP for
%% {caller} and return_to, the stack for return_trace and exception_trace
%% frames (pushed from inside native code), the heap for a match
%% specification that builds a large message, and untraced local calls
%% that go on natively while the gate is open.
-module(trace_native_calls).
-export([main/0]).

main() ->
    plain_calls(),
    return_trace(),
    exception_trace(),
    tail_calls(),
    caller_and_guards(),
    return_to(),
    untraced_neighbours(),
    counts(),
    meta(),
    big_messages(),
    ok.

%% Every call of a body-recursive function, and its result.
plain_calls() ->
    {R, Msgs} = run([{{?MODULE, fib, 1}, true, [local]}], [], fun() -> fib(6) end),
    io:format("fib ~p, ~p calls: ~p~n", [R, length(Msgs), [N || {trace, p, call, {_, fib, [N]}} <- Msgs]]).

%% return_trace frames pushed from native code, through body recursion
%% and list building.
return_trace() ->
    Ms = [{'_', [], [{return_trace}]}],
    {R, Msgs} = run([{{?MODULE, sum, 1}, Ms, [local]}], [], fun() -> sum(lists:seq(1, 5)) end),
    io:format("sum ~p~n", [R]),
    [io:format("  ~p~n", [M]) || M <- Msgs],
    {R2, Msgs2} = run([{{?MODULE, build, 1}, Ms, [local]}], [], fun() -> build(4) end),
    io:format("build ~p~n", [R2]),
    [io:format("  ~p~n", [M]) || M <- Msgs2].

%% exception_trace: a badarith deep in native recursion, caught.
exception_trace() ->
    Ms = [{'_', [], [{exception_trace}]}],
    {R, Msgs} = run([{{?MODULE, add_down, 2}, Ms, [local]}], [],
                    fun() -> catch add_down(3, nan) end),
    {'EXIT', {Reason, [Top | _]}} = R,
    io:format("add_down ~p at ~p~n", [Reason, element(2, Top)]),
    [io:format("  ~p~n", [M]) || M <- Msgs].

%% Tail calls (call_last, call_only) with return_trace: one return_from
%% for the whole chain, as on the BEAM.
tail_calls() ->
    Ms = [{'_', [], [{return_trace}]}],
    {R, Msgs} = run([{{?MODULE, len, 2}, Ms, [local]}], [], fun() -> len([a, b, c, d], 0) end),
    io:format("len ~p~n", [R]),
    [io:format("  ~p~n", [M]) || M <- Msgs],
    {R2, Msgs2} = run([{{?MODULE, down, 1}, Ms, [local]},
                       {{?MODULE, framed_down, 1}, Ms, [local]}], [],
                      fun() -> framed_down(3) end),
    io:format("framed_down ~p~n", [R2]),
    [io:format("  ~p~n", [M]) || M <- Msgs2].

%% {caller} reads CP as native code set it; a guard picks some calls.
caller_and_guards() ->
    Ms = [{['$1'], [{'=:=', {'rem', '$1', 3}, 0}], [{message, {caller}}]}],
    {R, Msgs} = run([{{?MODULE, fib, 1}, Ms, [local]}], [], fun() -> fib(7) end),
    io:format("fib ~p~n", [R]),
    [io:format("  ~p~n", [M]) || M <- Msgs],
    {R2, Msgs2} = run([{{?MODULE, len, 2}, [{'_', [], [{message, {caller}}]}], [local]}], [],
                      fun() -> 1 + wrap_len([x, y]) end),
    io:format("wrap_len ~p~n", [R2]),
    [io:format("  ~p~n", [M]) || M <- Msgs2].

%% return_to: the frames of a traced local call made from native code.
return_to() ->
    {R, Msgs} = run([{{?MODULE, sum, 1}, true, [local]}], [return_to],
                    fun() -> sum([1, 2]) end),
    io:format("sum ~p~n", [R]),
    [io:format("  ~p~n", [M]) || M <- Msgs].

%% One function traced among untraced ones that call each other natively.
untraced_neighbours() ->
    {R, Msgs} = run([{{?MODULE, leaf, 1}, true, [local]}], [],
                    fun() -> {fib(15), sum(build(100)), len(build(50), 0), tree(4)} end),
    io:format("neighbours ~p, leaves ~p~n", [R, length(Msgs)]).

%% call_count and call_time on local functions running natively.
counts() ->
    Self = self(),
    erlang:trace_pattern({?MODULE, fib, 1}, true, [local, call_count]),
    erlang:trace_pattern({?MODULE, len, 2}, true, [local, call_time]),
    P = spawn(fun() ->
                  receive go -> ok end,
                  R = {fib(12), len(build(30), 0)},
                  Self ! {done, self(), R}
              end),
    erlang:trace(P, true, [call]),
    P ! go,
    R = receive {done, P, R0} -> R0 end,
    {call_count, Count} = erlang:trace_info({?MODULE, fib, 1}, call_count),
    {call_time, [{_, Calls, S, Us}]} = erlang:trace_info({?MODULE, len, 2}, call_time),
    erlang:trace_pattern({?MODULE, fib, 1}, false, [local, call_count]),
    erlang:trace_pattern({?MODULE, len, 2}, false, [local, call_time]),
    io:format("counts ~p: fib ~p calls, len ~p calls, time ~p~n",
              [R, Count, Calls, is_integer(S) andalso is_integer(Us)]).

%% A meta pattern: its tracer gets calls whatever the process's flags.
meta() ->
    Keeper = trace_names:keeper(),
    Self = self(),
    erlang:trace_pattern({?MODULE, sum, 1}, [{'_', [], [{return_trace}]}],
                         [local, {meta, Keeper}]),
    P = spawn(fun() -> receive go -> ok end, Self ! {done, self(), sum([4, 5])} end),
    P ! go,
    R = receive {done, P, R0} -> R0 end,
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    erlang:trace_pattern({?MODULE, sum, 1}, false, [local, meta]),
    %% Meta messages carry a timestamp, last: dropped.
    Msgs = [list_to_tuple(lists:droplast(tuple_to_list(trace_names:name(M, #{P => p}))))
            || M <- trace_names:kept(Keeper)],
    io:format("meta ~p~n", [R]),
    [io:format("  ~p~n", [M]) || M <- Msgs].

%% A match specification whose message is a large term built on the
%% traced process's heap, on every call of a function that builds a list
%% natively: the heap fills and collects inside the probe.
big_messages() ->
    Eight = {{'$1', '$1', '$1', '$1', '$1', '$1', '$1', '$1'}},
    Ms = [{['$1'], [], [{message, {{Eight, Eight, Eight, Eight}}}]}],
    {R, Msgs} = run([{{?MODULE, build, 1}, Ms, [local]}], [],
                    fun() -> L = build(3000), {length(L), sum(L)} end),
    Extras = [element(1, element(1, X)) || {trace, p, call, {_, build, _}, X} <- Msgs],
    io:format("build ~p, ~p calls, extras ~p~n",
              [R, length(Msgs), lists:sum(Extras)]).

%% Runs Work in a new process traced with call (and Flags) to a keeper,
%% with Patterns set; its result and the trace messages, pids named.
run(Patterns, Flags, Work) ->
    Keeper = trace_names:keeper(),
    Self = self(),
    P = spawn(fun() -> receive go -> ok end, Self ! {done, self(), Work()} end),
    1 = erlang:trace(P, true, [call, {tracer, Keeper} | Flags]),
    [erlang:trace_pattern(MFA, Ms, Opts) || {MFA, Ms, Opts} <- Patterns],
    P ! go,
    R = receive {done, P, R0} -> R0 end,
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end,
    [erlang:trace_pattern(MFA, false, Opts) || {MFA, _, Opts} <- Patterns],
    {R, trace_names:name(trace_names:kept(Keeper), #{P => p, Self => main})}.

%% The traced functions: each compiles to instructions beamr has native
%% code for (local calls, small-integer arithmetic, lists, tuples).
fib(0) -> 0;
fib(1) -> 1;
fib(N) -> fib(N - 1) + fib(N - 2).

sum([H | T]) -> H + sum(T);
sum([]) -> 0.

build(0) -> [];
build(N) -> [leaf(N) | build(N - 1)].

leaf(N) -> N.

len([_ | T], N) -> len(T, N + 1);
len([], N) -> N.

wrap_len(L) -> len(L, 0).

down(0) -> done;
down(N) -> down(N - 1).

framed_down(N) ->
    R = down(N),
    {R, N}.

add_down(0, X) -> X + 1;
add_down(N, X) -> 1 + add_down(N - 1, X).

tree(0) -> leaf(0);
tree(N) -> {tree(N - 1), tree(N - 1)}.
