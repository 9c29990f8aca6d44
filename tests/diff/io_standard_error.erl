-module(io_standard_error).
-export([main/0]).

%% standard_error is a registered I/O device: writes succeed, its options
%% read back, and setopts changes its encoding.
main() ->
    io:format("registered: ~p~n", [is_pid(whereis(standard_error))]),
    io:format("~p~n", [io:getopts(standard_error)]),
    ok = io:format(standard_error, "to stderr ~p~n", [1]),
    ok = io:put_chars(standard_error, [<<"bin ">>, "list\n"]),
    io:format("setopts: ~p~n", [io:setopts(standard_error, [{encoding, utf8}])]),
    io:format("~p~n", [io:getopts(standard_error)]),
    ok = io:format(standard_error, "~ts~n", [<<"é€"/utf8>>]),
    io:format("latin1: ~p~n", [io:setopts(standard_error, [{encoding, latin1}])]),
    io:format("~p~n", [io:getopts(standard_error)]),
    io:format("bad data: ~p~n", [catch io:put_chars(standard_error, [foo])]),
    io:format("done~n").
