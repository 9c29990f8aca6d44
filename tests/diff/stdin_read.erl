-module(stdin_read).
-export([main/0]).

%% io:read/1,2: terms one after another, across lines, a syntax error
%% (and reading going on after it), then eof.
main() ->
    loop().

loop() ->
    case io:read("") of
        eof -> io:format("eof~n");
        {ok, Term} -> io:format("ok ~p~n", [Term]), loop();
        {error, E} -> io:format("error ~p~n", [E]), loop()
    end.
