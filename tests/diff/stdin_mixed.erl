-module(stdin_mixed).
-export([main/0]).

%% Line, character, term and formatted reads taking turns on one input;
%% reads from another process share it.
main() ->
    io:format("~p~n", [io:get_line("")]),
    io:format("~p~n", [io:get_chars("", 4)]),
    io:format("~p~n", [io:read("")]),
    io:format("~p~n", [io:get_line("")]),
    io:format("~p~n", [io:fread("", "~d~d")]),
    Self = self(),
    spawn(fun() -> Self ! {line, io:get_line("")} end),
    receive {line, L} -> io:format("from another process: ~p~n", [L]) end,
    io:format("~p~n", [io:get_line("")]),
    io:format("~p~n", [io:get_line("")]).
