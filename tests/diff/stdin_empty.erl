-module(stdin_empty).
-export([main/0]).

%% With nothing on standard input every read answers eof; io:columns
%% on a pipe is {error, enotsup}; prompts are written.
main() ->
    io:format("~p~n", [io:get_line("prompt> ")]),
    io:format("~p~n", [io:get_chars('', 3)]),
    io:format("~p~n", [io:read({"~s ~p> ", [formatted, 1]})]),
    io:format("~p~n", [io:fread("", "~d")]),
    io:format("~p~n", [io:columns()]),
    io:format("~p~n", [io:rows()]),
    io:format("~p~n", [io:get_line('atom prompt> ')]).
