%% The traced benchmarks of `cargo xtask bench --traced` (xtask/src/bench/traced.rs).
%%
%% Each exported function is one variant: it sets up its tracing (outside
%% the clock), then times exactly the traced region with
%% erlang:monotonic_time: the work, plus whatever it takes until every
%% trace event has reached its destination (the trace port flushed, the
%% tracer process drained). Its last line of output is
%% `<variant> <result> <N> us`, the harness's format; the result is the
%% same on every runtime and every run (the trace files too are the same
%% size on both: beamr's trace port writes the BEAM's format). The workloads are the peer
%% workloads' own (ring:run(10000, 100), as ../shared/bench/traced.erl
%% runs it, and fib:fib(30)), compiled next to this module. Trace files
%% are written in the current directory, which the harness makes and
%% empties.
%%
%% ring and fib also serve as the untraced baselines, and as the runs the
%% harness traces from outside (beamr run --trace ... --trace-to ...): the
%% same work, timed the same way.
-module(traced_driver).
-export([ring/0, ring_file/0, ring_proc/0, fib/0, fib_file/0]).

-define(RING_N, 10000).
-define(RING_M, 100).
-define(FIB_N, 30).

%% ring:run/2 prints a line of its own (with its own time); only this
%% module's last line counts. Every variant loads its modules before the
%% clock starts.
ring() ->
    loaded([ring]),
    T0 = now_us(),
    ring:run(?RING_N, ?RING_M),
    report(ring, "~p ~p", [?RING_N, ?RING_M], T0).

%% dbg to a file trace port: send and 'receive' of every new process, as
%% traced:ring_file/0.
ring_file() ->
    loaded([ring]),
    File = "ring.trace",
    file:delete(File),
    dbg:tracer(port, dbg:trace_port(file, File)),
    dbg:p(new, [send, 'receive']),
    T0 = now_us(),
    ring:run(?RING_N, ?RING_M),
    dbg:flush_trace_port(),
    T1 = now_us(),
    dbg:stop(),
    Size = filelib:file_size(File),
    file:delete(File),
    report(ring_file, "~p ~p, trace file ~p bytes", [?RING_N, ?RING_M, Size], T0, T1).

%% Trace messages to a tracer process: send and 'receive' of every new
%% process, as traced:ring_proc/0; the clock stops when the tracer has
%% taken every trace message.
ring_proc() ->
    loaded([ring]),
    Self = self(),
    Collector = spawn(fun() -> count(0) end),
    erlang:trace(new, true, [send, 'receive', {tracer, Collector}]),
    T0 = now_us(),
    ring:run(?RING_N, ?RING_M),
    erlang:trace(all, false, [all]),
    Collector ! {stop, Self},
    Count = receive {count, C} -> C end,
    T1 = now_us(),
    report(ring_proc, "~p ~p, ~p trace messages", [?RING_N, ?RING_M, Count], T0, T1).

count(N) ->
    receive
        {stop, From} -> From ! {count, N};
        _ -> count(N + 1)
    end.

%% One fib(30) takes a few milliseconds, about a time slice of a loaded
%% machine: the time reported is the median of five, each timed alone.
fib() ->
    loaded([fib]),
    Runs = [fib_once() || _ <- lists:seq(1, 5)],
    [R] = lists:usort([R || {R, _} <- Runs]),
    Times = lists:sort([T || {_, T} <- Runs]),
    io:format("fib ~p = ~p ~p us~n", [?FIB_N, R, lists:nth(3, Times)]).

fib_once() ->
    T0 = now_us(),
    R = fib:fib(?FIB_N),
    {R, now_us() - T0}.

%% dbg to a file trace port: every call of fib:fib/1 (a local pattern, so
%% the recursive calls too), as traced:fib_calls/0.
fib_file() ->
    loaded([fib]),
    File = "fib.trace",
    file:delete(File),
    dbg:tracer(port, dbg:trace_port(file, File)),
    dbg:p(self(), [call]),
    dbg:tpl(fib, fib, 1, []),
    T0 = now_us(),
    R = fib:fib(?FIB_N),
    dbg:flush_trace_port(),
    T1 = now_us(),
    dbg:stop(),
    Size = filelib:file_size(File),
    file:delete(File),
    report(fib_file, "~p = ~p, trace file ~p bytes", [?FIB_N, R, Size], T0, T1).

now_us() -> erlang:monotonic_time(microsecond).

loaded(Modules) ->
    [{module, M} = code:ensure_loaded(M) || M <- Modules],
    ok.

report(Name, Format, Args, T0) -> report(Name, Format, Args, T0, now_us()).

report(Name, Format, Args, T0, T1) ->
    io:format("~p " ++ Format ++ " ~p us~n", [Name | Args] ++ [T1 - T0]).
