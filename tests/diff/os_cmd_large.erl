-module(os_cmd_large).
-export([main/0]).

%% A megabyte of output from os:cmd, and many small commands in a row.
main() ->
    Out = os:cmd("head -c 1048576 /dev/zero | tr '\\000' 'a'"),
    io:format("~p ~p~n", [length(Out), lists:usort(Out)]),
    Lines = os:cmd("seq 1 20000"),
    Ns = [list_to_integer(L) || L <- string:lexemes(Lines, "\n")],
    io:format("~p ~p~n", [length(Ns), lists:sum(Ns)]),
    io:format("~p~n", [[os:cmd("echo " ++ integer_to_list(I)) || I <- lists:seq(1, 20)]]).
