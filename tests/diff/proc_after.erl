%% receive ... after: zero timeouts, timeouts expiring, messages arriving
%% before the timeout, and infinity.
-module(proc_after).
-export([main/0]).

main() ->
    R1 = receive _ -> got after 0 -> timeout end,
    io:format("empty after 0: ~p~n", [R1]),
    self() ! hello,
    R2 = receive hello -> got after 0 -> timeout end,
    io:format("ready after 0: ~p~n", [R2]),
    R3 = receive never -> got after 30 -> timeout end,
    io:format("after 30: ~p~n", [R3]),
    Self = self(),
    spawn(fun() -> Self ! late end),
    R4 = receive late -> got after 5000 -> timeout end,
    io:format("message before timeout: ~p~n", [R4]),
    spawn(fun() -> receive after 20 -> Self ! slow end end),
    R5 = receive slow -> got after infinity -> timeout end,
    io:format("infinity: ~p~n", [R5]),
    %% A non-matching message does not stop the timeout.
    self() ! noise,
    R6 = receive signal -> got after 20 -> timeout end,
    io:format("noise: ~p ~p~n", [R6, receive N -> N after 0 -> none end]),
    %% Sleep via receive after.
    sleep(10),
    io:format("slept~n"),
    %% Timeout as a variable.
    T = 15,
    R7 = receive x -> x after T -> {timeout, T} end,
    io:format("~p~n", [R7]),
    %% Loop of timeouts.
    io:format("ticks ~p~n", [ticks(5, 0)]),
    R8 = try receive x -> x after -1 -> t end catch error:E -> {error, E} end,
    io:format("negative: ~p~n", [R8]),
    R9 = try receive x -> x after foo -> t end catch error:E2 -> {error, E2} end,
    io:format("atom: ~p~n", [R9]).

sleep(Ms) -> receive after Ms -> ok end.

ticks(0, N) -> N;
ticks(K, N) -> receive after 1 -> ticks(K - 1, N + 1) end.
