%% The clocks: monotonic, system and OS time in every unit, the time offset
%% and the relations between them (only facts that hold on any run are
%% printed), and bad units.
-module(time_clocks).
-export([main/0]).
-compile({nowarn_deprecated_function, [{erlang, now, 0}]}).

units() ->
    [native, perf_counter, nanosecond, microsecond, millisecond, second,
     nano_seconds, micro_seconds, milli_seconds, seconds, 1, 1000, 7].

main() ->
    [check_unit(U) || U <- units()],
    M1 = erlang:monotonic_time(),
    M2 = erlang:monotonic_time(),
    io:format("monotonic never goes back: ~p~n", [M2 >= M1]),
    Ms = [erlang:monotonic_time(microsecond) || _ <- lists:seq(1, 1000)],
    io:format("monotonic sorted: ~p~n", [Ms =:= lists:sort(Ms)]),
    Offset = erlang:time_offset(),
    io:format("offset is final: ~p~n", [Offset =:= erlang:time_offset()]),
    S = erlang:system_time(),
    M = erlang:monotonic_time(),
    %% Within a minute: a loaded machine may pause between the two reads.
    io:format("system = monotonic + offset: ~p~n",
              [abs(S - (M + Offset)) < erlang:convert_time_unit(60, second, native)]),
    %% 2020-01-01 < now < 2200-01-01, in every clock.
    Low = 1577836800, High = 7258118400,
    Secs = [erlang:system_time(second), os:system_time(second),
            erlang:convert_time_unit(os:system_time(), native, second),
            erlang:convert_time_unit(erlang:system_time(), native, second)],
    io:format("plausible: ~p~n", [[Low < X andalso X < High || X <- Secs]]),
    {Mega, Sec, Micro} = erlang:timestamp(),
    {OMega, OSec, OMicro} = os:timestamp(),
    io:format("timestamp ~p ~p~n", [Low < Mega * 1000000 + Sec andalso Micro < 1000000,
                                    Low < OMega * 1000000 + OSec andalso OMicro < 1000000]),
    Now = [erlang:now() || _ <- lists:seq(1, 100)],
    io:format("now strictly increasing: ~p~n", [Now =:= lists:usort(Now)]),
    P1 = os:perf_counter(), P2 = os:perf_counter(),
    io:format("perf_counter ~p ~p~n", [P2 >= P1, is_integer(os:perf_counter(millisecond))]),
    io:format("convert: ~p~n",
              [[erlang:convert_time_unit(V, F, T) ||
                   {V, F, T} <- [{1, second, millisecond}, {1500, millisecond, second},
                                 {-1500, millisecond, second}, {1, second, native},
                                 {123456789, nanosecond, microsecond},
                                 {-1, nanosecond, second}, {3, 2, 1000},
                                 {1, seconds, milli_seconds}]]]),
    io:format("native unit: ~p~n", [erlang:convert_time_unit(1, second, native)]),
    U1 = [erlang:unique_integer([monotonic]) || _ <- lists:seq(1, 100)],
    io:format("unique monotonic: ~p~n", [U1 =:= lists:usort(U1)]),
    U2 = [erlang:unique_integer([positive]) || _ <- lists:seq(1, 100)],
    io:format("unique positive: ~p ~p~n", [lists:all(fun(X) -> X > 0 end, U2),
                                            length(lists:usort(U2))]),
    U3 = [erlang:unique_integer() || _ <- lists:seq(1, 100)],
    io:format("unique: ~p~n", [length(lists:usort(U3))]),
    U4 = [erlang:unique_integer([positive, monotonic]) || _ <- lists:seq(1, 100)],
    io:format("unique positive monotonic: ~p~n", [U4 =:= lists:usort(U4) andalso hd(U4) > 0]),
    [outcome:print(F) || F <- [fun() -> erlang:monotonic_time(minute) end,
                     fun() -> erlang:system_time(0) end,
                     fun() -> erlang:system_time(-1) end,
                     fun() -> erlang:time_offset("second") end,
                     fun() -> os:system_time(hour) end,
                     fun() -> erlang:convert_time_unit(1.0, second, native) end,
                     fun() -> erlang:convert_time_unit(1, second, hour) end,
                     fun() -> erlang:unique_integer([bad]) end,
                     fun() -> erlang:unique_integer(positive) end,
                     fun() -> os:perf_counter(bad) end]],
    ok.

check_unit(U) ->
    Results = [is_integer(erlang:monotonic_time(U)), is_integer(erlang:system_time(U)),
               is_integer(erlang:time_offset(U)), is_integer(os:system_time(U)),
               is_integer(os:perf_counter(U))],
    io:format("~p: ~p~n", [U, Results]).

