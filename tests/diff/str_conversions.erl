-module(str_conversions).
-export([main/0]).

%% Conversions between atoms, strings, binaries, numbers and terms.
main() ->
    p([atom_to_list('hello world'), atom_to_binary('ünï', utf8), list_to_atom("made_up"),
       binary_to_atom(<<"bin_atom">>, latin1), list_to_existing_atom("ok")]),
    p([integer_to_list(-42), list_to_integer("-42"), integer_to_binary(7), binary_to_integer(<<"99">>)]),
    p([float_to_list(2.5, [{decimals, 1}]), list_to_float("2.5e3"), binary_to_float(<<"1.0">>)]),
    p([list_to_binary([$a, [$b], <<"c">>]), binary_to_list(<<1, 2>>), tuple_to_list({1, {2}}),
       list_to_tuple("ab")]),
    p([term_to_binary([]), term_to_binary(a), term_to_binary(1 bsl 40), term_to_binary(-1),
       term_to_binary(<<"x">>), term_to_binary({1, 2.0})]),
    p([binary_to_term(term_to_binary({"s", [a | b], #{1 => 2}})), byte_size(term_to_binary(lists:seq(1, 100)))]),
    p([term_to_binary(hello, [compressed]), binary_to_term(term_to_binary(lists:duplicate(50, x), [compressed]))]),
    p([iolist_to_binary(["a", [<<"b">>, [$c]]]), erlang:iolist_size(["ab", <<"c">>])]),
    p([catch list_to_atom([-1]), catch list_to_existing_atom("surely_no_such_atom_xyz"),
       catch binary_to_term(<<131, 255>>)]),
    p([lists:flatten(io_lib:format("~w", [{1, "x"}])), erl_scan_free(<<"done">>)]),
    ok.

erl_scan_free(B) -> binary_to_list(B).

p(X) -> io:format("~p~n", [X]).
