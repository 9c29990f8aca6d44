-module(stdin_binary).
-export([main/0]).

%% Standard input in binary mode (io:setopts(standard_io, [binary])):
%% get_line, get_chars and file:read return binaries, the options say
%% so, and list mode comes back (erl 25's `user' fails a binary read after
%% a list one, so the program ends in list mode).

p(X) -> io:format("~p~n", [X]).

main() ->
    p(lists:keyfind(binary, 1, io:getopts(standard_io))),
    p(io:setopts(standard_io, [binary])),
    p(lists:keyfind(binary, 1, io:getopts(standard_io))),
    p(io:get_line('')),
    p(io:get_chars('', 4)),
    p(file:read(standard_io, 6)),
    p(file:read_line(standard_io)),
    p(io:get_line('')),
    p(io:setopts(standard_io, [list])),
    p(io:get_line('')),
    p(lists:keyfind(binary, 1, io:getopts(standard_io))),
    p(io:get_line('')),
    p(file:read(standard_io, 10)),
    p(io:get_line('')),
    p(io:get_line('')).
