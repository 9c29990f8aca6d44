%% The timer module: send_after/send_interval/cancel, apply_after,
%% sleep, tc (only the shape of its result), exit_after.
-module(otp_timer).
-export([main/0, record/2]).

main() ->
    {ok, T1} = timer:send_after(10, self(), once),
    receive once -> io:format("send_after~n") end,
    io:format("tref: ~p~n", [element(1, T1)]),
    {ok, T2} = timer:send_interval(5, self(), tick),
    Ticks = [receive tick -> tick end || _ <- [1, 2, 3]],
    {ok, cancel} = timer:cancel(T2),
    flush(tick),
    io:format("interval: ~p~n", [Ticks]),
    receive tick -> io:format("unexpected tick~n") after 30 -> io:format("cancelled~n") end,
    {ok, _} = timer:apply_after(5, ?MODULE, record, [self(), applied]),
    receive {recorded, applied} -> io:format("apply_after~n") end,
    ok = timer:sleep(5),
    {Time, Value} = timer:tc(fun() -> lists:sum(lists:seq(1, 1000)) end),
    io:format("tc: ~p ~p~n", [is_integer(Time), Value]),
    {Time2, Value2} = timer:tc(lists, reverse, [[1, 2, 3]]),
    io:format("tc/3: ~p ~p~n", [is_integer(Time2), Value2]),
    io:format("seconds: ~p minutes: ~p hours: ~p hms: ~p~n",
              [timer:seconds(2), timer:minutes(1), timer:hours(1), timer:hms(1, 2, 3)]),
    process_flag(trap_exit, true),
    P = spawn_link(fun() -> receive after infinity -> ok end end),
    {ok, _} = timer:exit_after(5, P, timed_out),
    receive {'EXIT', P, R} -> io:format("exit_after: ~p~n", [R]) end,
    {ok, T3} = timer:send_after(1000, self(), never),
    io:format("cancel: ~p~n", [timer:cancel(T3)]),
    io:format("done~n").

record(Pid, X) -> Pid ! {recorded, X}.

flush(M) -> receive M -> flush(M) after 0 -> ok end.
