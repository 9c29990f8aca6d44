%% Fifty processes waiting with a message each in their queue, alive for
%% many metric intervals: for beamr-cli/tests/trace_otel.rs, whose
%% exported runtime metrics must show them.
-module(otel_metrics).
-export([main/0, waiter/0]).

main() ->
    Pids = [spawn(?MODULE, waiter, []) || _ <- lists:seq(1, 50)],
    [P ! unread || P <- Pids],
    %% Sampling runs on a thread of its own every metric interval (100 ms
    %% in the test): twenty of them, for a loaded machine to run it in.
    timer:sleep(2000),
    io:format("~p~n", [length(Pids)]).

waiter() ->
    receive never -> ok end.
