%% A run with known calls for beamr-cli/tests/trace_run.rs:
%% `beamr run --trace-call trace_calls:fib/1:x` records 15 calls of fib/1
%% and their 15 returns, and the sum it prints.
-module(trace_calls).
-export([main/0, fib/1]).

main() ->
    io:format("~p~n", [?MODULE:fib(5)]).

fib(N) when N < 2 -> N;
fib(N) -> ?MODULE:fib(N - 1) + ?MODULE:fib(N - 2).
