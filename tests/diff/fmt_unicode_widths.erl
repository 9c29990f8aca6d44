-module(fmt_unicode_widths).
-export([main/0]).

%% ~ts/~tp/~tw with widths, precision and non-latin1 characters on a
%% latin1 device.
main() ->
    S = "naïve ☃ snow",
    io:format("[~ts]~n", [S]),
    io:format("[~20ts] [~-20ts] [~.5ts]~n", [S, S, S]),
    io:format("[~s]~n", ["naïve"]),
    io:format("[~tp] [~tw]~n", [S, S]),
    io:format("[~tp]~n", [<<"naïve ☃"/utf8>>]),
    io:format("[~p]~n", [<<"naïve ☃"/utf8>>]),
    io:format("[~tp]~n", [{'ünïcode', "ïn", [9731]}]),
    io:format("[~tc] [~c]~n", [9731, 233]),
    io:format("~ts~n", [[<<"mixed "/utf8>>, "list ", <<"☃"/utf8>>]]),
    io:format("~p~n", [catch io_lib:format("~s", [[9731]])]),
    ok.
