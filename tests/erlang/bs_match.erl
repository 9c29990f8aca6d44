%% Fixture: binary matching: integers, floats, binaries, UTF, strings,
%% tails, positions, bad sizes, and the binwork benchmark's logic.
-module(bs_match).
-compile([export_all, nowarn_export_all]).

id(X) -> X.
seq(A, B) when A > B -> [];
seq(A, B) -> [A | seq(A + 1, B)].

cases() ->
    [int_aligned, int_unaligned, int_little, int_signed, int_big, int_var_size,
     floats, float_nan, float16, binaries, bitstrings, bin_var_size, tail_unit,
     utf8_ok, utf8_bad, utf16, utf32, strings, match_string_unaligned, sub_match,
     positions, bad_size_neg, bad_size_atom, bad_size_big, bad_size_float,
     badmatch_short, case_clause, function_clause, binwork, skip_bits, zero_sizes,
     nested_match, guard_sizes, comprehension_match, tail_of_sub].

run(C) ->
    try ?MODULE:C() catch Cl:R -> {Cl, R} end.

int_aligned() ->
    B = id(<<1, 2, 3, 4, 5, 6, 7, 8, 9>>),
    <<A:8, C:16, D:32, E:16, _/binary>> = B,
    {A, C, D, E}.
int_unaligned() ->
    B = id(<<16#DEADBEEFCAFEF00D:64, 16#12345678:32>>),
    [begin <<_:O, X:S, _/bits>> = B, X end || O <- [1, 3, 7, 13], S <- [1, 5, 9, 17, 33, 51]].
int_little() ->
    B = id(<<16#0102030405060708:64, 16#FF>>),
    [begin <<_:O, X:S/little, _/bits>> = B, X end || O <- [0, 3], S <- [8, 12, 16, 24, 31, 64]].
int_signed() ->
    B = id(<<255, 128, 127, 1, 16#F0>>),
    [begin <<_:O, X:S/signed, _/bits>> = B, {X, begin <<_:O, Y:S/signed-little, _/bits>> = B, Y end} end
     || O <- [0, 4], S <- [1, 4, 8, 12, 16, 32]].
int_big() ->
    B = id(<<16#FFEEDDCCBBAA99887766554433221100FF:136>>),
    <<X:136>> = B, <<Y:136/signed>> = B, <<Z:136/little>> = B, <<W:130/signed-little, _:6>> = B,
    {X, Y, Z, W}.
int_var_size() ->
    B = id(<<3, 1, 2, 3, 9>>),
    <<N:8, X:N/unit:8, R/binary>> = B,
    {N, X, R}.

floats() ->
    B = id(<<1.5:64/float, -2.25:32/float, 0.1:64/float-little>>),
    <<A:64/float, C:32/float, D:64/float-little>> = B,
    {A, C, D}.
float_nan() ->
    [case id(B) of <<F:S/float>> -> {ok, F}; _ -> nomatch end
     || {B, S} <- [{<<16#7FF8000000000000:64>>, 64}, {<<16#7F800000:32>>, 32},
                   {<<16#7C00:16>>, 16}, {<<1:24>>, 24}, {<<1.0:64/float>>, 64}]].
float16() ->
    [begin <<F:16/float>> = <<X:16>>, F end || X <- [0, 16#3C00, 16#C000, 16#7BFF, 16#0001, 16#3555]].
binaries() ->
    B = id(<<1, 2, 3, 4, 5>>),
    <<A:2/binary, R/binary>> = B,
    <<C:1/binary, _:1/binary, D/bits>> = B,
    {A, R, C, D}.
bitstrings() ->
    B = id(<<1, 2, 3:4>>),
    <<A:3/bits, C:5/bits, R/bits>> = B,
    case B of <<_/binary>> -> binary; <<_:8, _/bits>> -> {A, C, R} end.
bin_var_size() ->
    [case id(<<1, 2, 3>>) of <<X:N/binary, _/binary>> -> X; _ -> nomatch end || N <- [0, 1, 3, 4]].
tail_unit() ->
    [case id(B) of <<_:3, R/binary>> -> {yes, R}; _ -> no end
     || B <- [<<1:3>>, <<1:11>>, <<1:12>>, <<1, 2>>]].

utf8_ok() ->
    decode8(id(<<"héllo €𝄞"/utf8>>)).
decode8(<<C/utf8, R/binary>>) -> [C | decode8(R)];
decode8(<<>>) -> [];
decode8(B) -> {bad, B}.
utf8_bad() ->
    [decode8(id(B)) || B <- [<<16#C0, 16#80>>, <<16#ED, 16#A0, 16#80>>, <<16#E2, 16#82>>,
                             <<16#F4, 16#90, 16#80, 16#80>>, <<16#80>>, <<16#FF>>,
                             <<"a", 16#E2, 16#82, 16#AC, "b">>, <<16#F0, 16#9D, 16#84, 16#9E>>]].
utf16() ->
    B = id(<<"a€𝄞"/utf16>>), L = id(<<"a€𝄞"/utf16-little>>),
    {d16(B), d16l(L), d16(<<16#D800:16>>), d16(<<16#DC00:16, 0:16>>), d16(<<16#D800:16, 16#41:16>>)}.
d16(<<C/utf16, R/binary>>) -> [C | d16(R)];
d16(<<>>) -> [];
d16(B) -> {bad, B}.
d16l(<<C/utf16-little, R/binary>>) -> [C | d16l(R)];
d16l(<<>>) -> [];
d16l(B) -> {bad, B}.
utf32() ->
    [case id(B) of <<C/utf32, _/binary>> -> C; <<C/utf32-little>> -> {little, C}; _ -> bad end
     || B <- [<<0, 0, 0, 65>>, <<0, 16#10, 16#FF, 16#FF>>, <<0, 16#11, 0, 0>>, <<0, 0, 16#D8, 0>>,
              <<65, 0, 0, 0>>, <<1, 2, 3>>]].
strings() ->
    [str(id(B)) || B <- [<<"GET /x">>, <<"POST y">>, <<"GE">>, <<"PUT">>, <<>>]].
str(<<"GET ", P/binary>>) -> {get, P};
str(<<"POST ", _/binary>>) -> post;
str(<<"PU", X>>) -> {pu, X};
str(_) -> other.
match_string_unaligned() ->
    B = id(<<1:3, "abc", 5:5>>),
    case B of <<1:3, "abc", X:5>> -> {ok, X}; _ -> no end.
sub_match() ->
    B = id(<<0, 1, 2, 3, 4, 5, 6, 7>>),
    <<_:2/binary, S:4/binary, _/binary>> = B,
    <<X:16, Y:8, Z/binary>> = S,
    {S, X, Y, Z}.
positions() ->
    [pos(id(B)) || B <- [<<1, 2>>, <<1, 2, 3>>, <<2, 9>>, <<3>>]].
pos(<<1, X>>) -> {a, X};
pos(<<1, X, Y>>) -> {b, X, Y};
pos(<<_, X:4, _/bits>>) -> {c, X};
pos(_) -> d.

bad_size_neg() -> S = id(-1), case id(<<1, 2>>) of <<X:S, _/bits>> -> X; _ -> nomatch end.
bad_size_atom() -> S = id(foo), case id(<<1, 2>>) of <<X:S, _/bits>> -> X; _ -> nomatch end.
bad_size_big() -> S = id(1 bsl 70), case id(<<1, 2>>) of <<X:S, _/bits>> -> X; _ -> nomatch end.
bad_size_float() -> S = id(1.0), case id(<<1, 2>>) of <<X:S/binary, _/bits>> -> X; _ -> nomatch end.
badmatch_short() -> <<X:32>> = id(<<1, 2>>), X.
case_clause() -> case id(<<1>>) of <<2>> -> two end.
function_clause() -> fc(id(<<1, 2>>)).
fc(<<X:8>>) -> X.

binwork() ->
    B = build(100000, <<>>),
    {byte_size(B), sum(B, 0)}.
build(0, B) -> B;
build(N, B) -> build(N - 1, <<B/binary, N:32/big, (N rem 256):8>>).
sum(<<X:32/big, Y:8, Rest/binary>>, Acc) -> sum(Rest, Acc + X + Y);
sum(<<>>, Acc) -> Acc.

skip_bits() ->
    B = id(<<1, 2, 3, 4>>),
    N = id(9),
    <<_:N, X:7, _:8/binary-unit:1, Y/bits>> = B,
    {X, Y}.
zero_sizes() ->
    B = id(<<7>>),
    Z = id(0),
    <<X:Z, Y:Z/binary, W:8, V:Z/signed-little>> = B,
    {X, Y, W, V}.
nested_match() ->
    B = id(<<2, "ab", 3, "cde", 0>>),
    chunks(B).
chunks(<<0>>) -> [];
chunks(<<N, C:N/binary, R/binary>>) -> [C | chunks(R)].
guard_sizes() ->
    [g(id(B)) || B <- [<<1, 2, 3>>, <<1:4>>, <<>>, foo]].
g(B) when byte_size(B) > 2 -> big;
g(B) when is_bitstring(B), bit_size(B) < 8, bit_size(B) > 0 -> bits;
g(B) when is_binary(B) -> small;
g(_) -> other.
comprehension_match() ->
    B = id(<<1, 2, 3, 4, 5, 6, 7>>),
    {[X + Y || <<X:4, Y:4>> <= B], [X || <<X:3>> <= B], << <<X>> || <<X:16>> <= B >>}.
tail_of_sub() ->
    B = id(<<"hello world">>),
    <<_:6/binary, W/binary>> = B,
    T = tl_(W),
    {W, T, byte_size(T)}.
tl_(<<_, R/binary>>) -> R.
