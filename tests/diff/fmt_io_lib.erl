-module(fmt_io_lib).
-export([main/0]).

%% io_lib's formatting and writing functions, returning chars.
main() ->
    p(io_lib:format("~p: ~w~n", [key, [1, 2]])),
    p(lists:flatten(io_lib:format("~8.3f|~-6s|~3..0b", [3.14159, "ab", 7]))),
    p(io_lib:write({a, "b", <<"c">>})),
    p(io_lib:write([1, 2, 3], 2)),
    p(lists:flatten(io_lib:print({deep, [list, {'of', things}]}))),
    p(io_lib:write_atom('needs quotes')),
    p(io_lib:write_string("quote\"me\n")),
    p(io_lib:write_char($a)),
    p(io_lib:char_list("abc")),
    p([io_lib:printable_list("abc"), io_lib:printable_list([0, 200]), io_lib:printable_latin1_list([200])]),
    p(io_lib:fwrite("~s", ["fwrite"])),
    p(lists:flatten(io_lib:format("~tp", [[1024, 1025]]))),
    p(io_lib:unscan_format([{"~p", [x]}, "lit"])),
    p(io_lib:scan_format("~5.2f and ~s", [1.5, "x"])),
    p(io_lib:indentation("abc\n  de", 4)),
    p(catch io_lib:format("~z", [1])),
    p(catch io_lib:format("~p ~p", [1])),
    ok.

p(X) -> io:format("~p~n", [X]).
