%% diff-env: TZ=<-0930>9:30
%% Local time in a zone given by TZ as a POSIX rule string (a fixed offset
%% of -09:30, no DST): fixed datetimes, DST gaps and overlaps included,
%% converted between local and universal time with each DST flag, and
%% calendar's functions on top (lib/time_zone.erl).
-module(time_zone_negative_offset).
-export([main/0]).

main() ->
    time_zone:in_zone("<-0930>9:30").
