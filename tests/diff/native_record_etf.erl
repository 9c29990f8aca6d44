%% diff-requires-otp: 29
-module(native_record_etf).
%% term_to_binary/binary_to_term of native records (tag 67: field count,
%% exported flag, module, name, field names, values): the bytes OTP 29
%% writes, round trips, definitions found again, and bad encodings.
-export([main/0]).
-export_record([z]).

-record #p{x = 0, y = 0}.
-record #e{}.
-record #z{k}.
-record #m{nr_etf_b, nr_etf_a}.

main() ->
    P = #p{x = 1, y = 2},
    io:format("~w~n", [[term_to_binary(P), term_to_binary(#e{}), term_to_binary(#z{k = 7}),
                        term_to_binary(#m{nr_etf_b = 2, nr_etf_a = 1})]]),
    Back = binary_to_term(term_to_binary({P, [#e{}, #z{k = <<"bin">>}]})),
    io:format("~p ~w~n", [Back, Back =:= {P, [#e{}, #z{k = <<"bin">>}]}]),
    X = binary_to_term(<<131,67,0,0,0,1,0,119,17,110,97,116,105,118,101,95,114,101,99,
                         111,114,100,95,101,116,102,119,1,122,119,1,107,97,7>>),
    io:format("~w ~w ~w~n", [X, records:is_exported(X), X =:= #z{k = 7}]),
    Y = binary_to_term(<<131,67,0,0,0,2,1,119,1,109,119,1,121,119,1,107,119,1,106,97,7,97,8>>),
    io:format("~w ~w ~w~n", [Y, records:is_exported(Y), records:get_field_names(Y)]),
    io:format("~p~n", [[outcome:run(fun() -> binary_to_term(<<131,67,0,0,0,2,1,119,1,109,119,1,121,
                                                     119,1,107,119,1,107,97,7,97,8>>) end),
                        outcome:run(fun() -> binary_to_term(<<131,67,0,0,0,1,2,119,1,109,119,1,121,
                                                     119,1,107,97,7>>) end),
                        outcome:run(fun() -> binary_to_term(<<131,67,0,0,0,1,0,97,3,119,1,121,
                                                     119,1,107,97,7>>) end),
                        outcome:run(fun() -> binary_to_term(<<131,67,0,0,0,1,0,119,1,109>>) end)]]),
    Z = binary_to_term(term_to_binary(P, [compressed])),
    io:format("~w ~w~n", [Z =:= P, byte_size(term_to_binary(lists:duplicate(10, P)))]),
    ok.
