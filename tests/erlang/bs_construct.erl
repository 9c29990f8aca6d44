%% Fixture: binary construction (bs_create_bin), every segment type and
%% option, appends, and construction errors. run/1 returns each case's
%% value or {Class, Reason}.
-module(bs_construct).
-compile([export_all, nowarn_export_all]).

id(X) -> X.
seq(A, B) when A > B -> [];
seq(A, B) -> [A | seq(A + 1, B)].
foldl(_, Acc, []) -> Acc;
foldl(F, Acc, [H | T]) -> foldl(F, F(H, Acc), T).
csum(<<X, R/binary>>, A) -> csum(R, (A * 31 + X) rem 1000000007);
csum(<<>>, A) -> A.

cases() ->
    [int_sizes, int_little, int_native, int_big_values, int_unaligned, int_const_sizes,
     floats, float16, float_little, float_from_int, binaries, bitstrings,
     bin_sized, bin_sized_units, utf8, utf16, utf32, strings, empty, heap_and_refc,
     append_loop, append_versions, append_bits, append_same, comprehension,
     comprehension_bits, guard_fail, err_int_type, err_float_type, err_size_neg,
     err_size_atom, err_size_bignum, err_bin_short, err_bin_unit,
     err_utf8_surrogate, err_utf8_range, err_utf16_neg, err_utf32_atom, err_float_size,
     err_float32_range, err_float16_range, err_append_unit, err_append_type,
     err_float_bigint].

run(C) ->
    try ?MODULE:C() catch Cl:R -> {Cl, R} end.

int_sizes() ->
    [<<(id(X)):(id(S))>> || X <- [0, 1, 255, 256, -1, 16#123456789, -16#123456789],
                            S <- [0, 1, 7, 8, 12, 16, 33, 64, 65, 100]].
int_little() ->
    [<<(id(X)):(id(S))/little>> || X <- [0, 1, 255, 16#123, -2, 16#123456789abcdef],
                                   S <- [1, 7, 8, 12, 16, 24, 31, 64, 72]].
int_native() ->
    [<<(id(X)):16/native, (id(X)):32/native-signed>> || X <- [1, -1, 258]].
int_big_values() ->
    Big = id(1 bsl 100 + 12345),
    [<<Big:128>>, <<Big:128/little>>, <<(-Big):130/signed>>, <<Big:64>>,
     <<Big:101/little>>, <<(-Big):200/little>>, <<(id(-1)):150>>].
int_unaligned() ->
    [<<(id(1)):3, (id(X)):(id(S)), (id(5)):5>> || X <- [0, 1, 300, -7], S <- [4, 13, 29, 64]].
int_const_sizes() ->
    X = id(16#abcdef),
    {<<X:4, X:12/little, X:24/big-signed, X:7/little-signed>>, <<X, X:16>>}.

floats() ->
    [<<(id(F)):64/float, (id(F)):32/float>> || F <- [0.0, 1.5, -2.25, 1.0e10, 3.0e-5]].
float16() ->
    [<<(id(F)):16/float>> || F <- [0.0, 1.0, -1.5, 65504.0, 0.1, 1.0e-7, 2.0e-5]].
float_little() ->
    [<<(id(1.5)):64/float-little>>, <<(id(-0.1)):32/float-little>>,
     <<(id(2.5)):16/float-little>>, <<(id(7.0)):64/float-native>>].
float_from_int() ->
    [<<(id(3)):64/float>>, <<(id(-7)):32/float>>, <<(id(1 bsl 70)):64/float>>].

binaries() ->
    A = id(<<1, 2, 3>>), B = id(<<4:4>>),
    [<<A/binary, A/binary>>, <<A/bitstring, B/bitstring>>, <<B/bitstring, A/binary>>,
     <<A/binary, B/bits, A/binary>>].
bitstrings() ->
    B = id(<<5:3>>),
    [<<B/bits, B/bits, B/bits>>, <<(id(1)):1, B/bits, (id(2)):2>>, bit_size(<<B/bits, B/bits>>)].
bin_sized() ->
    A = id(<<1, 2, 3, 4, 5>>),
    [<<A:2/binary>>, <<A:(id(3))/binary>>, <<A:(id(0))/binary>>, <<A:(id(5))/binary, 9>>].
bin_sized_units() ->
    A = id(<<255, 1, 2, 3>>),
    [<<A:(id(3))/bitstring>>, <<A:(id(2))/binary-unit:4>>, <<A:(id(11))/bits>>].

utf8() ->
    [<<(id(C))/utf8>> || C <- [0, $a, 16#7F, 16#80, 16#7FF, 16#800, 16#FFFF, 16#10000, 16#10FFFF, 16#E9]].
utf16() ->
    [{<<(id(C))/utf16>>, <<(id(C))/utf16-little>>} || C <- [$a, 16#FFFF, 16#10000, 16#1F600, 16#10FFFF]].
utf32() ->
    [{<<(id(C))/utf32>>, <<(id(C))/utf32-little>>} || C <- [$a, 16#1F600, 16#10FFFF]].
strings() ->
    {<<"abc", (id(1)):8, "de">>, <<(id(1)):1, "xyz">>, <<"">>, <<"é"/utf8>>}.
empty() ->
    {<<>>, <<(id(<<>>))/binary>>, <<(id(0)):0>>, byte_size(<<(id(<<>>))/binary>>)}.
heap_and_refc() ->
    Small = <<(id(7)):(64 * 8)>>,
    Large = <<(id(7)):(65 * 8)>>,
    Huge = <<(id(1)):(1000 * 8)>>,
    {byte_size(Small), byte_size(Large), binary:last(Large), byte_size(Huge),
     Small =:= binary:part(Large, 1, 64)}.

append_loop() ->
    B = append_loop(1000, <<>>),
    {byte_size(B), csum(B, 0), binary:part(B, 0, 20), binary:part(B, byte_size(B) - 10, 10)}.
append_loop(0, B) -> B;
append_loop(N, B) -> append_loop(N - 1, <<B/binary, N:32/big, (N rem 256):8>>).

append_versions() ->
    B0 = id(<<>>),
    B1 = <<B0/binary, 1>>,
    B2 = <<B1/binary, 2>>,
    B3 = <<B1/binary, 3>>,
    B4 = <<B2/binary, 4>>,
    B5 = <<B2/binary, 5>>,
    B6 = <<B4/binary, (id(<<6, 7, 8>>))/binary>>,
    B7 = <<B3/binary, 9:4>>,
    B8 = <<B7/bitstring, 10:4>>,
    {B0, B1, B2, B3, B4, B5, B6, B7, B8}.
append_bits() ->
    L = seq(1, 40),
    B = foldl(fun(I, Acc) -> <<Acc/bitstring, (I band 1):1>> end, <<>>, L),
    C = foldl(fun(I, Acc) -> <<Acc/bitstring, I:3>> end, <<1:1>>, L),
    {B, bit_size(B), C, bit_size(C)}.
append_same() ->
    B = id(<<1, 2, 3>>),
    B1 = <<B/binary, 4>>,
    B2 = <<B1/binary, B1/binary>>,
    B3 = <<B2/binary, B2/binary, B1/binary>>,
    {B1, B2, B3}.
comprehension() ->
    B = id(list_to_binary(seq(0, 200))),
    {<< <<(X + 1):16>> || <<X>> <= B >>, << <<X>> || <<X:4>> <= B, X > 3 >>}.
comprehension_bits() ->
    << <<X:3>> || X <- seq(0, 20) >>.

guard_fail() ->
    [guard(X) || X <- [1, foo, 1.5, -1, 256]].
guard(X) when <<X:8>> =:= <<1>> -> one;
guard(X) when is_integer(<<X:8>>) -> never;
guard(_) -> other.

err_int_type() -> <<(id(foo)):8>>.
err_float_type() -> <<(id(foo)):64/float>>.
err_size_neg() -> <<(id(1)):(id(-1))>>.
err_size_atom() -> <<(id(1)):(id(foo))>>.
err_size_bignum() -> <<(id(1)):(id(1 bsl 64))>>.
err_bin_short() -> <<(id(<<1, 2>>)):3/binary>>.
err_bin_unit() -> <<(id(<<1:4>>))/binary>>.
err_utf8_surrogate() -> <<(id(16#D800))/utf8>>.
err_utf8_range() -> <<(id(16#110000))/utf8>>.
err_utf16_neg() -> <<(id(-1))/utf16>>.
err_utf32_atom() -> <<(id(a))/utf32>>.
err_float_size() -> <<(id(1.0)):(id(24))/float>>.
err_float32_range() -> <<(id(1.0e300)):32/float>>.
err_float16_range() -> <<(id(1.0e6)):16/float>>.
err_append_unit() -> B = id(<<1:4>>), <<B/binary, 1>>.
err_append_type() -> B = id(foo), <<B/binary, 1>>.
err_float_bigint() -> <<(id(1 bsl 1100)):64/float>>.
