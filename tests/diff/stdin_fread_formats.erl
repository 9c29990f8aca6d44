-module(stdin_fread_formats).
-export([main/0]).

%% io:fread/2 with each control sequence (field widths, ~u with a base,
%% ~#, ~c, ~l, ~*, ~a, literal characters, unknown ones), then io:read/1
%% with string and atom prompts, a scan error, and every kind of read
%% after end of input; bad arguments to io's readers.
main() ->
    F = fun(Fmt) -> io:format("~p -> ~p~n", [Fmt, io:fread("fp> ", Fmt)]) end,
    [F(X) || X <- ["~5d", "~-d", "~u", "~16u", "~#", "~x", "~e", "~5c", "~l",
                   "~*d ~d", "~10f", "a~d", " ~s", "~2s~s", "~%", "~a", "~d~n~d",
                   "~~~d", "~s", "~c", "~d", "~f", "~s", "~s", "~s"]],
    io:format("~p~n", [io:read("read> ")]),
    io:format("~p~n", [io:read('ratom> ')]),
    io:format("~p~n", [io:read({"~s ~p> ", [fmt, 2]})]),
    io:format("~p~n", [io:read("")]),
    io:format("after eof:~n"),
    io:format("~p~n", [io:get_line("")]),
    io:format("~p~n", [io:get_line("")]),
    io:format("~p~n", [io:get_chars("", 2)]),
    io:format("~p~n", [io:fread("", "~d")]),
    io:format("~p~n", [io:read("")]),
    io:format("~p~n", [reason(catch io:get_chars("", -1))]),
    io:format("~p~n", [reason(catch io:get_line(12, ""))]),
    io:format("~p~n", [io:columns(nosuch)]).

reason({'EXIT', {Reason, [{M, F, Args, _} | _]}}) -> {Reason, M, F, length(Args)};
reason(Other) -> Other.
