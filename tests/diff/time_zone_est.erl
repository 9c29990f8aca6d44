%% diff-env: TZ=EST5EDT,M3.2.0,M11.1.0
%% Local time in a zone given by TZ as a POSIX rule string (US Eastern
%% rules: DST from the second Sunday of March to the first Sunday of
%% November): fixed datetimes, DST gaps and overlaps included, converted
%% between local and universal time with each DST flag, and calendar's
%% functions on top (lib/time_zone.erl).
-module(time_zone_est).
-export([main/0]).

main() ->
    time_zone:in_zone("EST5EDT,M3.2.0,M11.1.0").
