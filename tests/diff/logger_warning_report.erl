%% Reports (maps and key-value lists) at several levels, with and without a
%% report_cb in the metadata.
-module(logger_warning_report).
-export([main/0]).

main() ->
    logger:warning(#{what => disk, free => 10}),
    logger:error([{key, value}, {other, [1, 2]}]),
    logger:error(#{a => 1}, #{report_cb => fun(R) -> {"custom ~p", [maps:get(a, R)]} end}),
    logger:error(#{b => 2}, #{report_cb => fun(_R, _Cfg) -> "two-argument callback" end}),
    logger:warning(#{nested => #{deep => [x, y]}, list => "chars"}),
    logger_sync:wait(),
    io:format("done~n").
