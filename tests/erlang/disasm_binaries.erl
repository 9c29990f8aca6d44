%% Fixture: binary construction and the bit syntax in matching.
-module(disasm_binaries).
-export([build/2, parse/1, utf/1, float_bits/1, strs/1, tail/1, little/1, size_of/1]).

build(A, B) -> <<A:8, B:16/little, "abc", A:4, 0:4, B/binary>>.
parse(<<Len:8, Data:Len/binary, Rest/bits>>) -> {Data, Rest};
parse(<<>>) -> empty;
parse(_) -> error.
utf(<<C/utf8, R/binary>>) -> [C | utf(R)];
utf(<<>>) -> [];
utf(S) -> <<S/utf8, S/utf16, S/utf32-little>>.
float_bits(<<F:64/float, _/binary>>) -> F;
float_bits(F) -> <<F:32/float-native>>.
strs(<<"GET ", Path/binary>>) -> {get, Path};
strs(<<"POST ", _/binary>>) -> post;
strs(_) -> other.
tail(B) -> [X || <<X:3/signed-integer>> <= B].
little(<<X:32/little-signed, Y:16/big-unsigned, _:3, Z:5>>) -> {X, Y, Z}.
size_of(B) -> {byte_size(B), bit_size(B), binary_part(B, 0, 1)}.
