%% Timers fire on time while every scheduler is busy with CPU-bound
%% processes: a `receive ... after 10` loop, an `erlang:send_after/3` loop
%% and an `erlang:start_timer/3` loop each tick through a one-second
%% computation by one spinning process per scheduler. On erl each ticks
%% about 90 times; the program prints only whether each ticked at least
%% 10 times (an average lateness under 90 ms), a bound that a loaded
%% machine keeps and a timer that waits for an idle scheduler (0 to 5
%% ticks) does not.
-module(timer_under_load).
-export([main/0]).

-define(BUSY_MS, 1000).
-define(AT_LEAST, 10).

main() ->
    [io:format("~p ticks while busy: ~p~n", [Kind, under_load(Kind) >= ?AT_LEAST])
     || Kind <- [receive_after, send_after, start_timer]],
    io:format("done~n").

under_load(Kind) ->
    Self = self(),
    Deadline = now_ms() + ?BUSY_MS,
    Spinners = [spawn_link(fun() -> spin(Deadline), Self ! {spun, self()} end)
                || _ <- lists:seq(1, erlang:system_info(schedulers_online))],
    Ticks = tick(Kind, Deadline, 0),
    [receive {spun, S} -> ok end || S <- Spinners],
    Ticks.

tick(Kind, Deadline, N) ->
    wait(Kind),
    case now_ms() >= Deadline of
        true -> N;
        false -> tick(Kind, Deadline, N + 1)
    end.

wait(receive_after) ->
    receive after 10 -> ok end;
wait(send_after) ->
    erlang:send_after(10, self(), tick),
    receive tick -> ok end;
wait(start_timer) ->
    Ref = erlang:start_timer(10, self(), tick),
    receive {timeout, Ref, tick} -> ok end.

spin(Deadline) ->
    case now_ms() >= Deadline of
        true -> ok;
        false ->
            _ = lists:foldl(fun(X, A) -> X + A end, 0, lists:seq(1, 200)),
            spin(Deadline)
    end.

now_ms() -> erlang:monotonic_time(millisecond).
