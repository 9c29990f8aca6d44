-module(lists_strings).
-export([main/0]).

%% Strings as lists: deep lists, iolists, and the conversions between them.
main() ->
    S = "hello world",
    p([lists:reverse(S), string:tokens(S, " "), string:join(["a", "b", "c"], ", ")]),
    p([lists:flatten(["ab", [$c, ["de"]], "f"]), iolist_to_binary(["ab", <<"cd">>, $e, [[$f]]])]),
    p([iolist_size([<<1, 2>>, [3, [4]], 5])]),
    p([string:uppercase(S), string:lowercase("ÅBC"), string:titlecase("élan")]),
    p([lists:sublist(S, 5), string:substr(S, 7), string:str(S, "wor"), string:chr(S, $o)]),
    p([[C || C <- S, C =/= $o], lists:usort(S), length(S)]),
    p([string:copies("ab", 3), string:centre("x", 5), string:left("ab", 4, $.), string:right("ab", 4)]),
    p([string:strip("  x  "), string:strip("xxaxx", both, $x), string:trim("\t hi \n")]),
    p([list_to_atom("hello"), atom_to_list('with space'), list_to_binary("bin")]),
    ok.

p(X) -> io:format("~p~n", [X]).
