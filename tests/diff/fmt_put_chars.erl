-module(fmt_put_chars).
-export([main/0]).

%% io:put_chars, io:write, io:nl, io:fwrite and io_lib output through the
%% group leader.
main() ->
    io:put_chars("put_chars list\n"),
    io:put_chars(<<"put_chars binary\n">>),
    io:put_chars(["deep ", [<<"io">>, $l], "ist\n"]),
    io:write({written, [1, 2]}), io:nl(),
    io:fwrite("fwrite ~w~n", [ok]),
    io:format("no args~n"),
    io:format(standard_io, "to ~s~n", [standard_io]),
    io:format(user, "to ~s~n", [user]),
    io:format("~s~n", [lists:duplicate(200, $=)]),
    io:format("~p~n", [io:columns()]),
    io:format("~p~n", [catch io:put_chars(bad_chars_atom)]),
    ok.
