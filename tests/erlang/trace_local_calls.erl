%% A run with known local calls for beamr-cli/tests/trace_run.rs and
%% trace_otel.rs: `beamr run --trace-call trace_local_calls:fib/1:x`
%% traces the 15 calls of fib/1 that fib(5) makes, every one of them a
%% local call of a function that is not even exported, and their returns.
-module(trace_local_calls).
-export([main/0]).

main() ->
    io:format("~p~n", [fib(5)]).

fib(N) when N < 2 -> N;
fib(N) -> fib(N - 1) + fib(N - 2).
