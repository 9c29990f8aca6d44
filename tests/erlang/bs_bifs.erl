%% Fixture: BIFs on binaries (erlang, binary, unicode): results and errors.
-module(bs_bifs).
-compile([export_all, nowarn_export_all]).

id(X) -> X.

cases() ->
    [sizes, parts, part_errors, split_bin, list_to_bin, list_to_bin_errors, iolists,
     bitstring_lists, bin_to_list, etf_round_trip, etf_errors, atoms, atom_errors,
     integers, integer_errors, floats, bin_at, bin_copy, bin_match, bin_matches,
     bin_split, bin_replace, bin_errors, bin_lists, unsigned, common, unicode_ok,
     unicode_errors, unicode_list, unicode_utf16, unicode_badarg].

run(C) ->
    try ?MODULE:C() catch Cl:R -> {Cl, R} end.

t(F) -> try F() catch Cl:R -> {Cl, R} end.

sizes() ->
    [{byte_size(id(B)), bit_size(id(B)), is_bitstring(id(B)), is_binary(id(B))}
     || B <- [<<>>, <<1>>, <<1:1>>, <<1, 2:7>>, <<0:800>>]].
parts() ->
    B = id(<<"hello world">>),
    [binary_part(B, 0, 5), binary_part(B, {6, 5}), binary_part(B, 11, -5), binary_part(B, 3, 0),
     binary:part(B, 2, 3), binary:part(B, {11, -11}), binary_part(<<1, 2, 3:4>>, 1, 1)].
part_errors() ->
    B = id(<<"abc">>),
    [t(fun() -> binary_part(B, 2, 2) end), t(fun() -> binary_part(B, -1, 1) end),
     t(fun() -> binary_part(B, 1, -2) end), t(fun() -> binary_part(foo, 0, 0) end),
     t(fun() -> binary_part(B, a, 1) end), t(fun() -> binary:part(B, {0, 4}) end)].
split_bin() ->
    [split_binary(id(<<1, 2, 3>>), 0), split_binary(id(<<1, 2, 3>>), 3), split_binary(id(<<1, 2, 3:4>>), 2),
     t(fun() -> split_binary(id(<<1>>), 2) end), t(fun() -> split_binary(id(a), 0) end)].
list_to_bin() ->
    [list_to_binary(id([1, 2, <<3, 4>>, [5, [6, <<7>>]], [] | <<8>>])), list_to_binary(id([])),
     iolist_to_binary(id(<<"x">>)), iolist_to_binary(id([<<"a">>, "bc"])),
     iolist_size(id([1, <<2, 3>>, [[4]] | <<5>>])), iolist_size(id(<<1, 2>>))].
list_to_bin_errors() ->
    [t(fun() -> list_to_binary(id([256])) end), t(fun() -> list_to_binary(id([-1])) end),
     t(fun() -> list_to_binary(id(<<1>>)) end), t(fun() -> list_to_binary(id([1 | 2])) end),
     t(fun() -> list_to_binary(id([<<1:4>>])) end), t(fun() -> iolist_size(id([a])) end),
     t(fun() -> iolist_to_binary(id(<<1:4>>)) end)].
iolists() ->
    Deep = lists:foldl(fun(I, A) -> [A, I] end, [], lists:seq(1, 5000)),
    {iolist_size(Deep), byte_size(iolist_to_binary(Deep)), binary:last(iolist_to_binary(Deep))}.
bitstring_lists() ->
    [list_to_bitstring(id([<<1:3>>, <<2:5>>, 3, <<4:4>>])), list_to_bitstring(id([<<1:1>> | <<1:1>>])),
     t(fun() -> list_to_bitstring(id([a])) end), bitstring_to_list(id(<<1, 2, 3:3>>)),
     bitstring_to_list(id(<<1, 2>>))].
bin_to_list() ->
    [binary_to_list(id(<<1, 2, 3>>)), binary_to_list(id(<<1, 2, 3>>), 2, 3),
     t(fun() -> binary_to_list(id(<<1:4>>)) end), t(fun() -> binary_to_list(id(<<1, 2>>), 2, 1) end),
     t(fun() -> binary_to_list(id(<<1, 2>>), 0, 1) end), t(fun() -> binary_to_list(id(<<1, 2>>), 1, 3) end)].
etf_round_trip() ->
    Terms = [1, -1, 1 bsl 100, 1.5, foo, "abc", [1, [2]], {a, <<1, 2>>, <<1:3>>}, #{a => 1}, []],
    [{term_to_binary(T), binary_to_term(term_to_binary(T)) =:= T} || T <- Terms] ++
    [binary_to_term(term_to_binary(lists:seq(1, 100), [compressed])) =:= lists:seq(1, 100),
     binary_to_term(<<131, 100, 0, 3, "abc", 9, 9>>, [used]),
     byte_size(term_to_binary(lists:duplicate(100, 0), [{compressed, 9}])),
     term_to_binary(abc, [{minor_version, 1}, deterministic])].
etf_errors() ->
    [t(fun() -> binary_to_term(id(<<131, 200>>)) end), t(fun() -> binary_to_term(id(<<>>)) end),
     t(fun() -> binary_to_term(id(foo)) end), t(fun() -> term_to_binary(a, [bogus]) end),
     t(fun() -> binary_to_term(<<131, 100, 0, 12, "zz_no_such_1">>, [safe]) end)].
atoms() ->
    [atom_to_binary(id(foo)), atom_to_binary(id('héllo'), utf8), atom_to_binary(id('héllo'), latin1),
     binary_to_atom(id(<<"bar">>)), binary_to_atom(id(<<"h", 233>>), latin1),
     binary_to_atom(id(<<"héllo"/utf8>>), utf8), binary_to_existing_atom(id(<<"foo">>)),
     binary_to_existing_atom(id(<<"foo">>), latin1)].
atom_errors() ->
    [t(fun() -> binary_to_existing_atom(id(<<"zz_never_made_atom_1">>)) end),
     t(fun() -> binary_to_atom(id(<<255>>), utf8) end), t(fun() -> atom_to_binary(id(1)) end),
     t(fun() -> atom_to_binary(id('ā'), latin1) end), t(fun() -> binary_to_atom(id(<<"a">>), bad) end),
     t(fun() -> binary_to_atom(id(binary:copy(<<"a">>, 256))) end)].
integers() ->
    [integer_to_binary(id(0)), integer_to_binary(id(-123)), integer_to_binary(id(1 bsl 80)),
     integer_to_binary(id(255), 16), integer_to_binary(id(-35), 36), integer_to_binary(id(5), 2),
     binary_to_integer(id(<<"123">>)), binary_to_integer(id(<<"-0042">>)), binary_to_integer(id(<<"+7">>)),
     binary_to_integer(id(<<"123456789012345678901234567890">>)), binary_to_integer(id(<<"ff">>), 16),
     binary_to_integer(id(<<"-ZZ">>), 36)].
integer_errors() ->
    [t(fun() -> binary_to_integer(id(<<>>)) end), t(fun() -> binary_to_integer(id(<<"1.0">>)) end),
     t(fun() -> binary_to_integer(id(<<" 1">>)) end), t(fun() -> binary_to_integer(id(<<"-">>)) end),
     t(fun() -> binary_to_integer(id(<<"12">>), 2) end), t(fun() -> integer_to_binary(id(1.0)) end),
     t(fun() -> integer_to_binary(id(1), 37) end), t(fun() -> binary_to_integer(id(<<"1">>), 1) end)].
floats() ->
    [float_to_binary(id(1.5)), float_to_binary(id(1.5), [{decimals, 3}]), float_to_binary(id(0.1), [short]),
     float_to_binary(id(123.456), [{scientific, 2}]), binary_to_float(id(<<"1.5">>)),
     binary_to_float(id(<<"-2.5e3">>)), t(fun() -> binary_to_float(id(<<"1">>)) end),
     t(fun() -> binary_to_float(id(<<"abc">>)) end)].
bin_at() ->
    B = id(<<10, 20, 30>>),
    [binary:at(B, 0), binary:at(B, 2), binary:first(B), binary:last(B), t(fun() -> binary:at(B, 3) end),
     t(fun() -> binary:first(<<>>) end), t(fun() -> binary:last(id(<<>>)) end)].
bin_copy() ->
    [binary:copy(id(<<1, 2>>)), binary:copy(id(<<1, 2>>), 3), binary:copy(id(<<1>>), 0), binary:copy(id(<<>>), 1 bsl 50),
     t(fun() -> binary:copy(id(<<1>>), -1) end)].
bin_match() ->
    B = id(<<"abcdeabcde">>),
    [binary:match(B, <<"cd">>), binary:match(B, <<"x">>), binary:match(B, [<<"de">>, <<"bcd">>, <<"bc">>]),
     binary:match(B, <<"a">>, [{scope, {1, 9}}]), binary:match(B, <<"e">>, [{scope, {10, -6}}]),
     binary:match(B, <<"abcdeabcde">>), binary:match(B, <<"abcdeabcdef">>)].
bin_matches() ->
    B = id(<<"aaaa abab">>),
    [binary:matches(B, <<"aa">>), binary:matches(B, [<<"a">>, <<"ab">>]), binary:matches(B, <<"b">>, [{scope, {0, 7}}]),
     binary:matches(B, <<"z">>)].
bin_split() ->
    B = id(<<"a,b,,c,">>),
    [binary:split(B, <<",">>), binary:split(B, <<",">>, [global]), binary:split(B, <<",">>, [global, trim]),
     binary:split(B, [<<",">>, <<"b">>], [global, trim_all]), binary:split(<<"abcabc">>, <<"b">>, [{scope, {2, 3}}]),
     binary:split(B, <<";">>), binary:split(<<>>, <<",">>, [global]), binary:split(<<>>, <<",">>, [global, trim])].
bin_replace() ->
    B = id(<<"abcabc">>),
    [binary:replace(B, <<"b">>, <<"X">>), binary:replace(B, <<"b">>, <<"XY">>, [global]),
     binary:replace(B, [<<"a">>, <<"bc">>], <<>>, [global]),
     binary:replace(B, <<"b">>, <<"[]">>, [global, {insert_replaced, 1}]),
     binary:replace(B, <<"bc">>, <<"<>">>, [{insert_replaced, [0, 2]}]),
     binary:replace(B, <<"c">>, <<"!">>, [global, {scope, {0, 4}}])].
bin_errors() ->
    [t(fun() -> binary:match(id(<<"a">>), <<>>) end), t(fun() -> binary:match(id(<<"a">>), []) end),
     t(fun() -> binary:split(id(<<"a">>), <<"a">>, [bogus]) end), t(fun() -> binary:matches(id(a), <<"a">>) end),
     t(fun() -> binary:replace(<<"a">>, <<"a">>, <<"b">>, [{insert_replaced, 2}]) end),
     t(fun() -> binary:match(<<"abc">>, <<"a">>, [{scope, {2, 2}}]) end)].
bin_lists() ->
    [binary:bin_to_list(id(<<1, 2, 3>>)), binary:bin_to_list(id(<<1, 2, 3>>), {1, 2}),
     binary:bin_to_list(id(<<1, 2, 3>>), 3, -2), binary:list_to_bin(id([1, <<2>>, [3]])),
     t(fun() -> binary:bin_to_list(id(<<1>>), 0, 2) end)].
unsigned() ->
    [binary:decode_unsigned(id(<<1, 0>>)), binary:decode_unsigned(id(<<1, 0>>), little),
     binary:decode_unsigned(id(<<>>)), binary:decode_unsigned(id(<<255, 255, 255, 255, 255, 255, 255, 255, 255>>)),
     binary:encode_unsigned(id(256)), binary:encode_unsigned(id(256), little), binary:encode_unsigned(id(0)),
     binary:encode_unsigned(id(1 bsl 70)), t(fun() -> binary:encode_unsigned(id(-1)) end),
     t(fun() -> binary:decode_unsigned(id(<<1>>), middle) end)].
common() ->
    [binary:longest_common_prefix(id([<<"abcd">>, <<"abce">>, <<"abx">>])),
     binary:longest_common_suffix(id([<<"xbcd">>, <<"abcd">>, <<"cd">>])),
     binary:longest_common_prefix(id([<<"a">>])), binary:longest_common_prefix(id([<<"a">>, <<>>])),
     t(fun() -> binary:longest_common_prefix(id([])) end), t(fun() -> binary:longest_common_suffix(id([a])) end)].
unicode_ok() ->
    [unicode:characters_to_binary(id("héllo €")), unicode:characters_to_binary(id([<<"ab">>, [$c, 8364 | <<"d">>]])),
     unicode:characters_to_binary(id(<<"abc">>)), unicode:characters_to_binary(id([233, 255]), latin1),
     unicode:characters_to_binary(id(<<233>>), latin1), unicode:characters_to_binary(id("é"), unicode, latin1),
     unicode:characters_to_binary(id("a€"), unicode, utf16), unicode:characters_to_binary(id("a€"), unicode, {utf32, little}),
     unicode:characters_to_binary(id([])), unicode:characters_to_binary(id([[], <<>>]))].
unicode_errors() ->
    [unicode:characters_to_binary(id([$a, -1, $b])), unicode:characters_to_binary(id([[$a, -1], $b])),
     unicode:characters_to_binary(id([$a, [$c, 16#110000, $d], $b])), unicode:characters_to_binary(id(<<"a", 255, "b">>)),
     unicode:characters_to_binary(id([<<"x">>, <<"a", 255, "b">>, $c])), unicode:characters_to_binary(id(<<"a", 16#e2, 16#82>>)),
     unicode:characters_to_binary(id([256, $a]), latin1), unicode:characters_to_binary(id([$a, 16#D800]))].
unicode_list() ->
    [unicode:characters_to_list(id(<<"héllo"/utf8>>)), unicode:characters_to_list(id([<<"ab">>, [$c | <<"d">>]]), unicode),
     unicode:characters_to_list(id(<<"a", 255, "b">>)), unicode:characters_to_list(id(<<233, 255>>), latin1),
     unicode:characters_to_list(id([$x, <<"é"/utf8>>]))].
unicode_utf16() ->
    [unicode:characters_to_list(id(<<0, 97, 216, 61, 222, 0>>), utf16),
     unicode:characters_to_binary(id(<<97, 0>>), {utf16, little}, utf32),
     unicode:characters_to_binary(id(<<0, 97, 216>>), utf16),
     unicode:characters_to_list(id(<<0, 0, 0, 97>>), utf32)].
unicode_badarg() ->
    [t(fun() -> unicode:characters_to_binary(id([$a, foo])) end), t(fun() -> unicode:characters_to_binary(id(foo)) end),
     t(fun() -> unicode:characters_to_list(id({a})) end), t(fun() -> unicode:characters_to_binary("a", bogus) end)].
