%% Calendar time: local and universal time now (shapes only), fixed
%% datetimes converted between local time, universal time and POSIX
%% seconds in the machine's zone, and calendar's functions on top. The
%% time_zone_* programs convert in zones set through TZ (the zone and the
%% fixed datetimes are lib/time_zone.erl's).
-module(time_calendar).
-export([main/0]).

main() ->
    {{Y, Mo, D}, {H, Mi, S}} = erlang:localtime(),
    io:format("localtime shape: ~p~n", [lists:all(fun is_integer/1, [Y, Mo, D, H, Mi, S])]),
    {UDate, UTime} = erlang:universaltime(),
    io:format("universaltime valid: ~p ~p~n",
              [calendar:valid_date(UDate), element(1, UTime) < 24]),
    io:format("date/time: ~p ~p~n", [tuple_size(date()), tuple_size(time())]),
    io:format("local = u2l(universal): ~p~n", [close(erlang:localtime(),
                                                       erlang:universaltime_to_localtime(erlang:universaltime()))]),
    io:format("calendar now: ~p ~p~n", [calendar:valid_date(element(1, calendar:local_time())),
                                        calendar:valid_date(element(1, calendar:universal_time()))]),
    time_zone:zone("machine"),
    [io:format("posix ~p -> ~p -> ~p~n",
               [DT, erlang:universaltime_to_posixtime(DT),
                erlang:posixtime_to_universaltime(erlang:universaltime_to_posixtime(DT))])
     || DT <- time_zone:fixed() ++ [{{1600, 1, 1}, {0, 0, 0}}, {{1969, 12, 31}, {23, 59, 59}}]],
    io:format("posix -> ~p~n", [[erlang:posixtime_to_universaltime(P)
                                 || P <- [0, -1, 86399, 1705320000, -11676096000,
                                          253402300799, 253402300800]]]),
    calendar_functions(),
    [outcome:print(F) || F <- [fun() -> erlang:localtime_to_universaltime({{2024, 2, 30}, {0, 0, 0}}) end,
                     fun() -> erlang:localtime_to_universaltime({{2023, 2, 29}, {0, 0, 0}}) end,
                     fun() -> erlang:localtime_to_universaltime({{1901, 12, 31}, {0, 0, 0}}) end,
                     fun() -> erlang:universaltime_to_localtime({{1901, 12, 31}, {23, 0, 0}}) end,
                     fun() -> erlang:localtime_to_universaltime({{2024, 1, 1}, {24, 0, 0}}) end,
                     fun() -> erlang:localtime_to_universaltime({{2024, 1, 1}, {0, 60, 0}}) end,
                     fun() -> erlang:localtime_to_universaltime({{2024, 1, 1}, {0, 0, 60}}) end,
                     fun() -> erlang:localtime_to_universaltime({{2024, 1, 1}, {0, 0}}) end,
                     fun() -> erlang:localtime_to_universaltime({{2024, 1, 1}, {0, 0, 0}}, 'maybe') end,
                     fun() -> erlang:localtime_to_universaltime({{2024.0, 1, 1}, {0, 0, 0}}) end,
                     fun() -> erlang:localtime_to_universaltime(now) end,
                     fun() -> erlang:universaltime_to_localtime({{2024, 13, 1}, {0, 0, 0}}) end,
                     fun() -> erlang:universaltime_to_localtime({{2024, 0, 1}, {0, 0, 0}}) end,
                     fun() -> erlang:universaltime_to_localtime({2024, 1, 1}) end,
                     fun() -> erlang:universaltime_to_posixtime({{1599, 12, 31}, {0, 0, 0}}) end,
                     fun() -> erlang:posixtime_to_universaltime(1.5) end,
                     fun() -> calendar:datetime_to_gregorian_seconds({{2024, 2, 30}, {0, 0, 0}}) end]],
    ok.

close(A, B) ->
    abs(calendar:datetime_to_gregorian_seconds(A) - calendar:datetime_to_gregorian_seconds(B)) < 5.

calendar_functions() ->
    DT = {{2024, 1, 15}, {12, 34, 56}},
    G = calendar:datetime_to_gregorian_seconds(DT),
    io:format("gregorian seconds: ~p ~p~n", [G, calendar:gregorian_seconds_to_datetime(G)]),
    io:format("gregorian days: ~p ~p~n", [calendar:date_to_gregorian_days(2024, 1, 15),
                                          calendar:gregorian_days_to_date(739265)]),
    io:format("day of week: ~p ~p~n", [calendar:day_of_the_week(2024, 1, 15),
                                       calendar:day_of_the_week({2000, 1, 1})]),
    io:format("iso week: ~p ~p~n", [calendar:iso_week_number({2024, 1, 15}),
                                    calendar:iso_week_number({2021, 1, 1})]),
    io:format("leap: ~p~n", [[calendar:is_leap_year(Y) || Y <- [1900, 2000, 2023, 2024]]]),
    io:format("last day: ~p~n", [calendar:last_day_of_the_month(2024, 2)]),
    io:format("diff: ~p~n", [calendar:time_difference({{2024, 1, 1}, {0, 0, 0}}, DT)]),
    io:format("seconds_to_daystime: ~p~n", [calendar:seconds_to_daystime(100000)]),
    io:format("seconds_to_time: ~p~n", [calendar:seconds_to_time(4000)]),
    io:format("time_to_seconds: ~p~n", [calendar:time_to_seconds({1, 2, 3})]),
    io:format("now_to_datetime: ~p~n", [calendar:now_to_universal_time({1705, 320000, 5})]),
    io:format("system_time_to_universal_time: ~p~n",
              [calendar:system_time_to_universal_time(1705320000123, millisecond)]),
    io:format("rfc3339: ~s~n", [calendar:system_time_to_rfc3339(1705320000123,
                                                                [{unit, millisecond}, {offset, "Z"}])]),
    io:format("rfc3339 parse: ~p~n", [calendar:rfc3339_to_system_time("2024-01-15T12:00:00+02:00")]),
    io:format("valid: ~p~n", [[calendar:valid_date(D) || D <- [{2024, 2, 29}, {2023, 2, 29}, {2024, 4, 31}]]]).

