%% A binary pattern whose size is past 2^64 bits: erlc 27 writes the size
%% as a bignum `u` operand of bs_match's ensure_exactly (and older erlc a
%% bs_test_tail2 or bs_skip_bits2 with it); the match never succeeds, and
%% the module must load and run as on erl. The same for sizes that are
%% read, not only tested: an integer, a binary and a skipped segment past
%% 2^64 bits (bignums in bs_match's integer, binary and skip commands), and
%% one that fits 64 bits only before it is multiplied by its unit.
-module(bs_match_huge_size).
-export([main/0]).

exactly(<<_:18446744073709551616>>) -> huge;
exactly(B) when is_bitstring(B) -> {other, bit_size(B)}.

at_least(<<_:18446744073709551616, _/bits>>) -> huge;
at_least(B) when is_bitstring(B) -> {other, bit_size(B)}.

integer(<<X:18446744073709551616, _/bits>>) -> {huge, X};
integer(<<X:8, _/bits>>) -> {byte, X};
integer(B) -> {other, bit_size(B)}.

binary(<<X:18446744073709551616/binary, _/bits>>) -> {huge, X};
binary(<<X:(1 bsl 61)/binary, _/bits>>) -> {past_unit, X};
binary(B) -> {other, bit_size(B)}.

skip(<<_:18446744073709551616, X:8, _/bits>>) -> {huge, X};
skip(<<_:1, X:7, _/bits>>) -> {seven, X};
skip(B) -> {other, bit_size(B)}.

main() ->
    [io:format("~p ~p ~p ~p ~p~n",
               [exactly(B), at_least(B), integer(B), binary(B), skip(B)])
     || B <- [<<>>, <<1, 2, 3>>, <<1:7>>]],
    ok.
