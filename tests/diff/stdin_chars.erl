-module(stdin_chars).
-export([main/0]).

%% io:get_chars/2,3 in chunks of different sizes; the last chunk is short,
%% then eof.
main() ->
    io:format("~p~n", [io:get_chars("", 1)]),
    io:format("~p~n", [io:get_chars(standard_io, "", 5)]),
    io:format("~p~n", [io:get_line("")]),
    loop(7).

loop(N) ->
    case io:get_chars("", N) of
        eof -> io:format("eof~n");
        Chars -> io:format("~p~n", [Chars]), loop(N)
    end.
