%% diff-env: TZ=CET-1CEST,M3.5.0,M10.5.0/3
%% Local time in a zone given by TZ as a POSIX rule string (Central
%% European rules: DST from the last Sunday of March to the last Sunday of
%% October): fixed datetimes, DST gaps and overlaps included, converted
%% between local and universal time with each DST flag, and calendar's
%% functions on top (lib/time_zone.erl).
-module(time_zone_cet).
-export([main/0]).

main() ->
    time_zone:in_zone("CET-1CEST,M3.5.0,M10.5.0/3").
