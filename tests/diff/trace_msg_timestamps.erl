%% Trace timestamps are on the runtime's own clocks: a monotonic_timestamp
%% lies between erlang:monotonic_time() read just before and just after the
%% event, a strict_monotonic_timestamp too (with increasing unique
%% integers), and a timestamp (erlang:now() form) within a second of
%% erlang:system_time/1 read just before and just after the event.
-module(trace_msg_timestamps).
-export([main/0]).

main() ->
    io:format("monotonic: ~p~n", [check(monotonic_timestamp)]),
    io:format("strict: ~p~n", [check(strict_monotonic_timestamp)]),
    io:format("now: ~p~n", [check(timestamp)]).

check(Flag) ->
    Self = self(),
    P = spawn(fun() -> receive {go, Main} -> Main ! a, Main ! b end end),
    1 = erlang:trace(P, true, [send, Flag]),
    Before = erlang:monotonic_time(),
    SysBefore = erlang:system_time(microsecond),
    P ! {go, Self},
    receive b -> ok end,
    After = erlang:monotonic_time(),
    SysAfter = erlang:system_time(microsecond),
    %% Both sends' trace messages come however slow the machine; no third.
    Ts = [receive {trace_ts, P, send, _, _, T} -> T end || _ <- [a, b]],
    [] = collect(P),
    judge(Flag, Ts, Before, After, {SysBefore, SysAfter}).

judge(monotonic_timestamp, [T1, T2], Before, After, _) ->
    Before =< T1 andalso T1 =< T2 andalso T2 =< After;
judge(strict_monotonic_timestamp, [{T1, U1}, {T2, U2}], Before, After, _) ->
    Before =< T1 andalso T1 =< T2 andalso T2 =< After andalso U1 < U2;
judge(timestamp, [{Mega, Sec, Micro} | _], _, _, {SysBefore, SysAfter}) ->
    Us = (Mega * 1000000 + Sec) * 1000000 + Micro,
    SysBefore - 1000000 < Us andalso Us < SysAfter + 1000000.

collect(P) ->
    receive {trace_ts, P, send, _, _, _} = T -> [T | collect(P)] after 100 -> [] end.
