-module(stdin_lines).
-export([main/0]).

%% io:get_line/1,2 over standard input until eof; the last line has no
%% newline; a long line comes whole.
main() ->
    loop(1).

loop(N) ->
    case io:get_line("") of
        eof ->
            io:format("~p: eof~n", [N]),
            io:format("again: ~p~n", [io:get_line(standard_io, "")]);
        Line when length(Line) > 60 ->
            io:format("~p: ~p chars ending ~p~n", [N, length(Line), lists:nthtail(length(Line) - 3, Line)]),
            loop(N + 1);
        Line ->
            io:format("~p: ~p~n", [N, Line]),
            loop(N + 1)
    end.
