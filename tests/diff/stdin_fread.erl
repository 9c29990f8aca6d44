-module(stdin_fread).
-export([main/0]).

%% io:fread/2,3 with several formats, a mismatch, then eof.
main() ->
    F = fun(Fmt) -> io:format("~p -> ~p~n", [Fmt, io:fread("", Fmt)]) end,
    F("~d"),
    F("~d ~d"),
    F("~s"),
    F("~a ~f"),
    F("~c~c"),
    F("~3s~d"),
    F("~d"),
    F("~s"),
    F("~s"),
    F("~d").
