%% Shared by time_calendar and the time_zone_* programs (not a program):
%% fixed datetimes converted between local and universal time, with each
%% DST flag and by calendar's functions, in the zone the run is in (the
%% machine's, or the one TZ sets).
-module(time_zone).
-export([fixed/0, zone/1, in_zone/1]).
-compile({nowarn_deprecated_function, [{calendar, local_time_to_universal_time, 1}]}).

fixed() ->
    [{{2024, 1, 15}, {12, 0, 0}}, {{2024, 7, 1}, {0, 30, 59}},
     {{1970, 1, 1}, {0, 0, 0}}, {{1902, 1, 2}, {0, 0, 0}},
     {{2000, 2, 29}, {23, 59, 59}}, {{2038, 1, 19}, {3, 14, 8}},
     {{2024, 3, 10}, {2, 30, 0}}, {{2024, 11, 3}, {1, 30, 0}},
     {{2024, 3, 31}, {2, 30, 0}}, {{2024, 10, 27}, {2, 30, 0}},
     {{9999, 12, 31}, {23, 59, 59}}].

%% What a time_zone_* program prints: zone/1, then the local times of 26
%% hourly POSIX times from 2024-03-09 05:00 UTC, and the universal times
%% of local 2024-11-03 00:00 to 03:59.
in_zone(Name) ->
    zone(Name),
    io:format("~p~n", [[erlang:universaltime_to_localtime(erlang:posixtime_to_universaltime(T))
                        || T <- lists:seq(1709960400, 1710050400, 3600)]]),
    io:format("~p~n", [[erlang:localtime_to_universaltime({{2024, 11, 3}, {H, M, 0}})
                        || H <- [0, 1, 2, 3], M <- [0, 59]]]).

%% The fixed datetimes in the zone, printed under `zone Name`.
zone(Name) ->
    io:format("zone ~s~n", [Name]),
    [begin
         L2U = erlang:localtime_to_universaltime(DT),
         Dst = [erlang:localtime_to_universaltime(DT, F) || F <- [true, false, undefined]],
         U2L = erlang:universaltime_to_localtime(DT),
         io:format("  ~p: l2u ~p dst ~p u2l ~p~n", [DT, L2U, Dst, U2L]),
         io:format("    calendar ~p ~p~n", [calendar:local_time_to_universal_time(DT),
                                            calendar:local_time_to_universal_time_dst(DT)])
     end || DT <- fixed()],
    io:format("  epoch local: ~p~n", [calendar:system_time_to_local_time(0, second)]),
    io:format("  rfc3339 local: ~s~n", [calendar:system_time_to_rfc3339(1705320000)]).
