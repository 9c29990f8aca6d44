-module(fmt_strings).
-export([main/0]).

%% ~s, ~ts, ~c, ~tc with widths, precision and padding.
main() ->
    io:format("[~s] [~s] [~s]~n", ["plain", <<"binary">>, hello_atom]),
    io:format("[~10s] [~-10s] [~.3s] [~10.3s]~n", ["right", "left", "truncate", "both"]),
    io:format("[~*s] [~-*s]~n", [8, "star", 8, "star"]),
    io:format("[~10.3.*s]~n", [$., "abcdef"]),
    io:format("[~s]~n", [["deep", [$i, "o"], <<"list">>]]),
    io:format("[~ts] [~ts]~n", ["unicodé", <<"bin"/utf8>>]),
    io:format("[~c] [~3c] [~-3c|] [~.2c]~n", [$a, $b, $c, $d]),
    io:format("[~tc]~n", [$é]),
    io:format("[~~] [~n]~n", []),
    io:format("~s~n", [io_lib:format("~5s|~-5s|", ["ab", "cd"])]),
    io:format("~p~n", [lists:flatten(io_lib:format("~s and ~s", ["a", "b"]))]),
    io:format("[~20.5s]~n", ["precision less than width"]),
    io:format("~p~n", [catch io_lib:format("~s", [[256]])]),
    ok.
