-module(bin_construct).
-export([main/0]).

%% Building binaries: sizes, types, endianness, signedness, units.
main() ->
    X = 16#1234, N = -2,
    p([<<X:16>>, <<X:16/little>>, <<X:32/big-unsigned>>, <<N:8>>, <<N:16/signed-little>>]),
    p([<<1, 2, 3>>, <<"abc">>, <<"abc"/utf8>>, <<$a, "bc", 0>>, <<>>]),
    p([<<1.5:64/float>>, <<1.5:32/float>>, <<-0.0:64/float-little>>, <<2:64/float>>]),
    B = <<"hello">>,
    p([<<B/binary, " world">>, <<B:3/binary>>, <<B/bits>>, <<0:4, B/binary, 15:4>>]),
    p([<<1:1, 0:1, 1:1>>, <<7:3, 1:5>>, <<300:8>>, <<(1 bsl 70):72>>, <<-1:70>>]),
    p([<<5:4/unit:8>>, <<X:2/unit:8>>, byte_size(<<1:9>>), bit_size(<<1:9>>)]),
    p([<<<<C>> || C <- "abc">>, << <<(C + 1)>> || <<C>> <= <<"HAL">> >>]),
    Size = 12,
    p([<<X:Size>>, <<X:Size/little>>, <<1:Size/unit:2>>]),
    p([try <<(list_to_atom("a")):8>> catch C:R -> {C, R} end,
       try <<1:(-1)>> catch C2:R2 -> {C2, R2} end,
       try <<(list_to_binary("ab")):3/binary>> catch C3:R3 -> {C3, R3} end]),
    p([list_to_binary([1, [2, <<3>>], "45"]), binary_to_list(<<"xyz">>), iolist_to_binary([<<>>, []])]),
    p([term_to_binary({a, 1, "s"}), binary_to_term(term_to_binary(#{k => [1.5, <<2>>]}))]),
    ok.

p(X) -> io:format("~p~n", [X]).
