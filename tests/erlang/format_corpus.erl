%% Fixture for beamr-core's `format` tests (beamr-core/tests/format_erl.rs).
%%
%% format_corpus:main(OutFile) writes, for every term of a corpus, the
%% term's external format and the text io_lib:format/2 gives for it under
%% each directive, so that the Rust test can rebuild the term and compare
%% beamr's output with OTP's byte for byte.
%%
%% File layout, all integers big-endian:
%%   repeated: u32 EtfLen, EtfLen bytes of term_to_binary(Term),
%%             u32 NumOutputs,
%%             NumOutputs x (u8 NameLen, Name, u32 TextLen, Text as UTF-8)
%%
%% Directive names: w, tw, p, tp, lp (~lp), PN and WN (~P and ~W at depth N),
%% pLN (~Np: line length N), pcN (~p starting at column N).
-module(format_corpus).
-export([main/0, main/1]).

main() ->
    main("format_corpus.bin").

main(OutFile) ->
    Data = [encode_case(T) || T <- corpus()],
    ok = file:write_file(OutFile, Data).

directives() ->
    [{"w", "~w", []}, {"tw", "~tw", []},
     {"p", "~p", []}, {"tp", "~tp", []}, {"lp", "~lp", []},
     {"P1", "~P", [1]}, {"P2", "~P", [2]}, {"P3", "~P", [3]}, {"P5", "~P", [5]},
     {"tP4", "~tP", [4]},
     {"W1", "~W", [1]}, {"W2", "~W", [2]}, {"W3", "~W", [3]}, {"W5", "~W", [5]},
     {"pL40", "~40p", []}, {"pL20", "~20p", []}, {"tpL30", "~30tp", []},
     {"pc20", {col, 20}, []}, {"pc60", {col, 60}, []}].

encode_case(T) ->
    Etf = term_to_binary(T),
    Outs = [begin
                Text = unicode:characters_to_binary(render(Fmt, T, Extra)),
                [length(Name), Name, <<(byte_size(Text)):32>>, Text]
            end || {Name, Fmt, Extra} <- directives()],
    [<<(byte_size(Etf)):32>>, Etf, <<(length(Outs)):32>>, Outs].

render({col, N}, T, _) ->
    Prefix = lists:duplicate(N - 1, $x),
    lists:nthtail(N - 1, lists:flatten(io_lib:format("~s~p", [Prefix, T])));
render(Fmt, T, Extra) ->
    io_lib:format(Fmt, [T | Extra]).

corpus() ->
    rand:seed(exsss, {17, 42, 4711}),
    atoms() ++ numbers() ++ floats() ++ lists_and_strings() ++ tuples()
        ++ maps() ++ binaries() ++ nested() ++ identifiers().

atoms() ->
    [foo, 'foo bar', 'Caps', '+', 'end', 'receive', 'maybe', 'else', '', '\n',
     'a\tb', 'it\'s', 'back\\slash', 'é', 'ßtraße', 'a÷b', 'Über',
     list_to_atom([26085, 26412]), list_to_atom([$a, 1, 127, 255]),
     'hello@world', a_1, 'a-b', true, nil, 'fun', 'andalso', 'div'].

numbers() ->
    [0, 1, -1, 42, 576460752303423487, 576460752303423488, -576460752303423488,
     -576460752303423489, 18446744073709551616, -(1 bsl 200), 1 bsl 1000].

floats() ->
    [0.0, -0.0, 1.0, -1.0, 0.1, 0.1 + 0.2, 1.0e21, 1.0e-7, 5.0e-324,
     1.7976931348623157e308, 2.2250738585072014e-308, 123456789.0, 1.0e15,
     1.0e16, 1.0e17, 9007199254740992.0, 9007199254740993.0, 9007199254740991.0,
     4503599627370496.5, 1.0e10, 1.0e-10, 1.2345678901234567e20, 100.0, 1000.0,
     0.001, 0.0001, 0.00001, 123.456, 3.141592653589793, 2.718281828459045,
     1.0e22, 1.0e23, 6.02214076e23, 1.5e300, 0.5, 1.0e-5, 1.0e-4]
    ++ [rand:uniform() * math:pow(10, rand:uniform(40) - 20) || _ <- lists:seq(1, 150)]
    ++ [-rand:uniform() * math:pow(10, rand:uniform(600) - 300) || _ <- lists:seq(1, 100)]
    ++ [float(rand:uniform(1 bsl 53)) || _ <- lists:seq(1, 30)]
    ++ [float(rand:uniform(100000)) * math:pow(10, rand:uniform(20)) || _ <- lists:seq(1, 30)]
    ++ [X || X <- [random_bits_float() || _ <- lists:seq(1, 200)], is_float(X)].

random_bits_float() ->
    <<F/float>> = <<(rand:uniform(2047) - 1):11/unsigned-integer-unit:1, 0:0,
                    (rand:uniform(1 bsl 53) - 1):53>>,
    F.

lists_and_strings() ->
    ["abc", "", "hello world\n", "tab\there", "quote\"s", "back\\slash",
     [1, 2, 3], [97, 98 | 99], [a | b], [1 | 2], "é", "caf\x{e9}",
     [26085, 26412], "mixed 日本", [127], [7, 8, 9, 10, 11, 12, 13, 27],
     [159, 160], [255, 256], "\e[31mred\e[0m", lists:seq(1, 100),
     lists:seq(32, 126), [[]], [[], []], ["abc", "def"], [$a, [$b]],
     lists:duplicate(40, "abcdefgh"), [$a, -1], [$a, 16#10FFFF], [16#D800],
     string:copies("long string ", 20), [foo | "abc"], [{a, b} | c],
     lists:seq(1, 30) ++ improper_tail, [-1 | -2]].

tuples() ->
    [{}, {a}, {a, b}, {1, 2, 3}, {tag, "string", 42},
     list_to_tuple(lists:seq(1, 50)),
     {person, "Joe Armstrong", 1950, {erlang, true}, [prolog, smalltalk]},
     erlang:make_tuple(30, abcdef), {erlang:make_tuple(30, abcdef), lists:seq(1, 40)},
     {a_very_long_tag_name_that_is_longer_than_twenty, lists:seq(1, 30)},
     {"not a tag", lists:seq(1, 40)}, {{nested, tuple}, lists:seq(1, 40)}].

maps() ->
    [#{}, #{a => 1}, #{a => 1, b => 2}, #{1 => one, a => atom, "s" => str, {t} => tuple},
     #{a => lists:seq(1, 30),
       bbbbbbbbbbbbbbbbbbbbb => {aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa,
                                 bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, ccccccccccccc}},
     maps:from_list([{K, K * K} || K <- lists:seq(1, 20)]),
     maps:from_list([{K, K * K} || K <- lists:seq(1, 32)]),
     maps:from_list([{K, K * K} || K <- lists:seq(1, 33)]),
     maps:from_list([{K, integer_to_list(K)} || K <- lists:seq(1, 100)]),
     %% Hash maps (over 32 keys) iterate in hash order. Atom keys are left
     %% out: OTP hashes an atom by its index in the atom table, which beamr's
     %% table does not reproduce (see beamr_core::map::hash).
     maps:from_list([{list_to_binary("key" ++ integer_to_list(K)), K} || K <- lists:seq(1, 40)]),
     maps:from_list([{"key" ++ integer_to_list(K), {K}} || K <- lists:seq(1, 50)]),
     maps:from_list([{{K, float(K)}, [K]} || K <- lists:seq(1, 64)]),
     #{small_atoms => 1, in_a => 2, flat_map => 3},
     #{key => #{inner => #{deep => [1, 2, 3]}}},
     #{#{a => 1} => [x], [1, 2] => {y}},
     #{long_key_number_one => "a long string value to force wrapping here",
       long_key_number_two => <<"another long binary value to force wrapping">>}].

binaries() ->
    [<<>>, <<1, 2, 3>>, <<"abc">>, <<"hello world\n">>, <<1, 2:3>>, <<5:3>>,
     <<"é"/utf8>>, <<233>>, <<"日本"/utf8>>, <<"abc", 0>>, <<0, "abc">>,
     <<"abcdefghijklmnopqrstuvwxyz">>, list_to_binary(lists:seq(0, 255)),
     list_to_binary(lists:duplicate(30, "abcdefghij")),
     <<"abcdefghijklmnopqrstuvwxyz", 1, 2, 3>>, <<"printable", 200, 201>>,
     <<"abc", 7:4>>, <<255, 255, 255, 1:1>>,
     binary:part(list_to_binary(lists:seq(1, 200)), 3, 100),
     <<"mixed é and 日本"/utf8>>, <<"\e[0m">>, <<"ab\x{ff}">>,
     {<<"in a tuple">>, <<1, 2, 3, 4, 5, 6, 7, 8, 9, 10>>}].

nested() ->
    Deep = lists:foldl(fun(I, Acc) -> {level, I, [Acc]} end, leaf, lists:seq(1, 12)),
    DeepList = lists:foldl(fun(_, Acc) -> [Acc] end, [], lists:seq(1, 30)),
    Wide = [{K, lists:seq(1, K), #{k => K}} || K <- lists:seq(1, 12)],
    Record = {state, {dict, 0, 16, 16, 8, 80, 48, {[], [], []}}, [1, 2, 3],
              <<"binary data">>, #{key => value}, undefined},
    [Deep, DeepList, Wide, Record,
     [{config, [{port, 8080}, {host, "localhost"}, {options, [binary, {active, false}]}]},
      {handlers, [#{name => h1, mod => my_handler, args => [1, 2, 3]},
                  #{name => h2, mod => other_handler, args => []}]}],
     {error, {badmatch, [1, 2, 3]}, [{mod, func, 2, [{file, "src/mod.erl"}, {line, 42}]},
                                      {mod2, func2, 0, [{file, "src/mod2.erl"}, {line, 7}]}]},
     [lists:seq(1, 10) || _ <- lists:seq(1, 10)],
     {[{a, 1}, {b, 2}], ["one", "two", "three"], <<"bin">>, 3.14, 'Quoted Atom'},
     {tag, {inner_tag, aaaaaaaaaaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbb, cccccccccccccccccccccccc}},
     [x | {improper, lists:seq(1, 40)}],
     lists:seq(1, 20) ++ [{a, lists:seq(1, 30)}]].

identifiers() ->
    Self = self(),
    Ref = make_ref(),
    Port = hd(erlang:ports()),
    F = fun(X) -> X + 1 end,
    G = fun(X) -> {X, Self} end,
    [Self, Ref, Port, F, G, fun lists:map/2, fun erlang:'+'/2, fun 'Mod':'fun name'/0,
     {Self, Ref, Port}, [F, G], #{pid => Self, ref => Ref}].
