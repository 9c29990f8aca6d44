-module(bin_bifs).
-export([main/0]).

%% The binary module and erlang's binary BIFs.
main() ->
    B = <<"the quick brown fox jumps over the lazy dog">>,
    p([binary:match(B, <<"o">>), binary:matches(B, <<"the">>), binary:match(B, [<<"fox">>, <<"dog">>])]),
    p([binary:split(B, <<" ">>), binary:split(B, <<" ">>, [global]), binary:split(<<"a,,b">>, <<",">>, [global, trim_all])]),
    p([binary:replace(B, <<"o">>, <<"0">>, [global]), binary:replace(B, <<"the">>, <<"a">>)]),
    p([binary:part(B, 4, 5), binary:part(B, {10, -6}), binary_part(B, 0, 3), binary:at(B, 1)]),
    p([binary:first(B), binary:last(B), binary:copy(<<"ab">>, 3), binary:bin_to_list(<<"hi">>)]),
    p([binary:decode_unsigned(<<1, 0>>), binary:encode_unsigned(65535), binary:decode_unsigned(<<1, 0>>, little)]),
    p([binary:longest_common_prefix([<<"prefix">>, <<"prelude">>]), binary:longest_common_suffix([<<"ending">>, <<"sing">>])]),
    p([split_binary(B, 9), byte_size(B), bit_size(B), binary_to_list(B, 5, 9)]),
    p([binary:encode_hex(<<1, 171, 255>>), binary:decode_hex(<<"01abFF">>)]),
    p([list_to_bitstring([<<1:3>>, <<2>>]), bitstring_to_list(<<1, 2:3>>), is_bitstring(<<1:3>>), is_binary(<<1:3>>)]),
    p([atom_to_binary(hello), binary_to_atom(<<"world">>), binary_to_existing_atom(<<"ok">>, utf8)]),
    p([try binary:part(B, 40, 10) catch C:R -> {C, R} end, try binary_to_list(B, 0, 1) catch C2:R2 -> {C2, R2} end]),
    ok.

p(X) -> io:format("~p~n", [X]).
