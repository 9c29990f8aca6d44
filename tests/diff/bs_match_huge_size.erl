%% A binary pattern whose size is past 2^64 bits: erlc 27 writes the size
%% as a bignum `u` operand of bs_match's ensure_exactly (and older erlc a
%% bs_test_tail2 or bs_skip_bits2 with it); the match never succeeds, and
%% the module must load and run as on erl.
-module(bs_match_huge_size).
-export([main/0]).

exactly(<<_:18446744073709551616>>) -> huge;
exactly(B) when is_bitstring(B) -> {other, bit_size(B)}.

at_least(<<_:18446744073709551616, _/bits>>) -> huge;
at_least(B) when is_bitstring(B) -> {other, bit_size(B)}.

main() ->
    [io:format("~p ~p~n", [exactly(B), at_least(B)])
     || B <- [<<>>, <<1, 2, 3>>, <<1:7>>]],
    ok.
