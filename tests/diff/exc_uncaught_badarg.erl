-module(exc_uncaught_badarg).
-export([main/0]).

%% A BIF's badarg escaping main, with the BIF frame first.
main() ->
    list_to_atom(binary_to_list(<<"x">>) ++ [a]).
