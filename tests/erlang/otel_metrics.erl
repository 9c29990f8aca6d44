%% Fifty processes waiting with a message each in their queue, alive for
%% a few metric intervals: for beamr-cli/tests/trace_otel.rs, whose
%% exported runtime metrics must show them.
-module(otel_metrics).
-export([main/0, waiter/0]).

main() ->
    Pids = [spawn(?MODULE, waiter, []) || _ <- lists:seq(1, 50)],
    [P ! unread || P <- Pids],
    timer:sleep(600),
    io:format("~p~n", [length(Pids)]).

waiter() ->
    receive never -> ok end.
