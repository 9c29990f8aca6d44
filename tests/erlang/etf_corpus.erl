%% The External Term Format corpus for beamr's ETF tests
%% (beamr-core/tests/etf_corpus.rs).
%%
%% write(Dir) writes, for every case NAME:
%%   NAME.in   bytes to decode: term_to_binary output, or hand-made
%%             encodings that erl reads but never writes;
%%   NAME.out  what erl's term_to_binary gives for binary_to_term(NAME.in)
%%             (compressed at level L when NAME starts with "zL_").
%% and for every bad case NAME: NAME.bad, bytes that binary_to_term refuses
%% (checked here, so the list only holds what erl really rejects).
%%
%% check(Dir) reads NAME.bin (written by beamr) and NAME.expr (an Erlang
%% expression) for every NAME in Dir and prints one line per case:
%%   ok NAME | FAIL NAME Reason
-module(etf_corpus).
-export([write/1, check/1, cases/0, bad_cases/0]).

write(Dir) ->
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    Cases = cases(),
    lists:foreach(
      fun({Name, In}) ->
              Out = reencode(Name, binary_to_term(In)),
              ok = file:write_file(filename:join(Dir, Name ++ ".in"), In),
              ok = file:write_file(filename:join(Dir, Name ++ ".out"), Out)
      end, Cases),
    Bad = [{N, B} || {N, B} <- bad_cases(), rejected(B)],
    lists:foreach(
      fun({Name, B}) -> ok = file:write_file(filename:join(Dir, Name ++ ".bad"), B) end,
      Bad),
    io:format("wrote ~b cases and ~b bad cases~n", [length(Cases), length(Bad)]).

reencode([$z, L, $_ | _], T) -> term_to_binary(T, [{compressed, L - $0}]);
reencode(_, T) -> term_to_binary(T).

rejected(B) ->
    try binary_to_term(B) of _ -> false
    catch error:badarg -> true
    end.

%% ---------------------------------------------------------------- terms

cases() ->
    Named = lists:append([ints(), floats(), atoms(), binaries(), lists(), tuples(),
                          maps(), pids_ports_refs(), funs(), mixed()]),
    Numbered = number(Named),
    Plain = [{Name, term_to_binary(T)} || {Name, T} <- Numbered],
    Compressed = [{"z" ++ integer_to_list(L) ++ "_" ++ Name, term_to_binary(T, [{compressed, L}])}
                  || {Name, T} <- number(compressible()), L <- [1, 6, 9]],
    Plain ++ Compressed ++ decode_only().

number(Named) ->
    {Out, _} = lists:mapfoldl(
                 fun({Name, T}, I) ->
                         {{lists:flatten(io_lib:format("~3..0b_~s", [I, Name])), T}, I + 1}
                 end, 0, Named),
    Out.

ints() ->
    Exps = [0, 1, 7, 8, 15, 16, 27, 28, 31, 32, 33, 59, 60, 63, 64, 65, 100, 127, 128,
            255, 256, 1000, 2040, 2048, 8000],
    [{"int", V} || K <- Exps, D <- [-1, 0, 1], V <- [(1 bsl K) + D, -((1 bsl K) + D)]]
        ++ [{"int", V} || V <- [0, 255, 256, -1, -256, 2147483647, -2147483648,
                                 2147483648, -2147483649, 576460752303423487,
                                 -576460752303423488, 18446744073709551615,
                                 -18446744073709551616, 1 bsl 100000]].

floats() ->
    [{"float", F} || F <- [0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 1/3, -2.5e-10, 3.14159,
                           1.0e300, -1.0e-300, 5.0e-324, 2.2250738585072014e-308,
                           1.7976931348623157e308, -1.7976931348623157e308,
                           123456789012345.0, 9007199254740993.0]].

atoms() ->
    [{"atom", A} || A <- ['', a, ok, 'hello world', 'Caps', 'with\nnewline', nonode@nohost,
                          list_to_atom([233]), list_to_atom([255, 254, 192]),
                          list_to_atom(lists:duplicate(255, $x)),
                          list_to_atom(lists:duplicate(255, 233)),
                          list_to_atom([945, 946, 947]), list_to_atom([16#1F600]),
                          list_to_atom([$a, 256]),
                          list_to_atom(lists:duplicate(100, 945)),
                          list_to_atom(lists:duplicate(255, 16#1F600))]].

binaries() ->
    Big = list_to_binary([X rem 251 || X <- lists:seq(1, 100000)]),
    <<_:3, Unaligned/bits>> = <<1, 2, 3, 4, 5>>,
    <<_:8, Aligned/binary>> = Big,
    [{"bin", B} || B <- [<<>>, <<0>>, <<1, 2, 3>>, list_to_binary(lists:seq(0, 63)),
                         list_to_binary(lists:seq(0, 64)), binary:part(Big, 0, 1000), Big,
                         Aligned, binary:part(Big, 17, 33)]]
        ++ [{"bits", B} || B <- [<<1:1>>, <<0:7>>, <<255, 3:2>>, <<16#abcd:13>>, Unaligned,
                                 <<1:1, Big/binary>>, <<Big/binary, 5:3>>]].

lists() ->
    Deep = lists:foldl(fun(_, A) -> [A] end, [], lists:seq(1, 2000)),
    DeepImproper = lists:foldl(fun(I, A) -> [I | A] end, tail, lists:seq(1, 100)),
    [{"list", L} || L <- [[], [1], [1, 2, 3], "hello", "", [0, 255], [256], [-1], [1, 256, 2],
                          [a, b, c], [a | b], [1 | 2], [1, 2 | 3], ["ab" | "cd"], [[], []],
                          [[[]]], Deep, DeepImproper, lists:seq(1, 255),
                          lists:duplicate(65535, $a), lists:duplicate(65536, $a),
                          lists:duplicate(65535, $a) ++ [256],
                          lists:seq(1, 70000), [1.0, <<"b">>, {c}],
                          [list_to_atom([945]) | "tail"], [945, 946], "a\x{10FFFF}"]].

tuples() ->
    DeepT = lists:foldl(fun(I, A) -> {I, A} end, {}, lists:seq(1, 1000)),
    [{"tuple", T} || T <- [{}, {a}, {1, 2}, {ok, "x", <<"y">>}, list_to_tuple(lists:seq(1, 255)),
                           list_to_tuple(lists:seq(1, 256)), list_to_tuple(lists:seq(1, 5000)),
                           {{{}}}, DeepT, {[], {}, #{}, <<>>}]].

maps() ->
    Small = fun(N) -> maps:from_list([{K, K * 2} || K <- lists:seq(1, N)]) end,
    AtomKeys = fun(N) -> maps:from_list([{list_to_atom("k" ++ integer_to_list(K)), K}
                                         || K <- lists:seq(1, N)]) end,
    Mixed = maps:from_list([{K, v} || K <- [1, 1.0, -1, a, "s", <<"b">>, {t}, [l], [],
                                            2.5, 1 bsl 70, self(), make_ref(), #{}]]),
    [{"map", M} || M <- [#{}, #{a => 1}, #{1 => a, a => 1}, Small(31), Small(32), Small(33),
                         Small(100), Small(1000), Small(5000), AtomKeys(32), AtomKeys(33),
                         AtomKeys(200), Mixed,
                         #{#{a => 1} => #{b => #{c => []}}},
                         maps:from_list([{{K, [K]}, <<K:32>>} || K <- lists:seq(1, 300)]),
                         maps:from_list([{integer_to_binary(K), K} || K <- lists:seq(1, 64)]),
                         maps:from_list([{float(K), K} || K <- lists:seq(1, 40)])]].

pids_ports_refs() ->
    Pid = spawn(fun() -> receive stop -> ok end end),
    {Other, MRef} = spawn_monitor(fun() -> ok end),
    ExtPid = binary_to_term(<<131, 88, 100, 0, 8, "a@remote", 0, 0, 0, 42, 0, 0, 0, 3,
                              0, 0, 0, 7>>),
    ExtPort = binary_to_term(<<131, 89, 100, 0, 8, "a@remote", 0, 0, 0, 42, 0, 0, 0, 7>>),
    ExtRef = binary_to_term(<<131, 90, 0, 3, 100, 0, 8, "a@remote", 0, 0, 0, 7,
                              0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 3>>),
    UtfNode = binary_to_term(<<131, 88, 119, 8, 206, 177, "@remote", 0, 0, 0, 1, 0, 0, 0, 0,
                               0, 0, 0, 9>>),
    [{"pid", self()}, {"pid", Pid}, {"pid", Other}, {"pid", list_to_pid("<0.5.7>")},
     {"pid", list_to_pid("<0.32767.8191>")},
     {"pid", ExtPid}, {"pid", UtfNode},
     {"port", hd(erlang:ports())}, {"port", list_to_port("#Port<0.99>")}, {"port", ExtPort},
     {"ref", make_ref()}, {"ref", MRef}, {"ref", ExtRef},
     {"ref", list_to_ref("#Ref<0.1.2.3>")}].

funs() ->
    Y = 5,
    Z = {tuple, [list], #{map => 1}},
    [{"fun", F} || F <- [fun lists:map/2, fun erlang:'+'/2, fun ?MODULE:cases/0,
                         fun(X) -> X + 1 end, fun() -> ok end, fun(X) -> X + Y end,
                         fun(A, B) -> {A, B, Y, Z} end, fun(X) -> fun(W) -> X + W + Y end end,
                         (fun(X) -> fun(W) -> X + W + Y end end)(7),
                         [fun(X) -> [X, Z] end, fun lists:reverse/1]]].

mixed() ->
    [{"mixed", T} || T <- [{ok, [1, 2.0, "three", <<"four">>, #{five => {6}}]},
                           {error, {badarg, [{erlang, element, [1, x], []}]}},
                           [{K, integer_to_list(K)} || K <- lists:seq(1, 300)],
                           #{list => lists:seq(1, 100), bin => <<0:8000>>,
                             nested => [#{a => [#{b => {}}]}]}]].

compressible() ->
    [{"c", T} || T <- [lists:seq(1, 1000), lists:duplicate(500, hello), <<0:80000>>,
                       {lists:duplicate(100, {a, b, c}), <<"text text text text text">>},
                       maps:from_list([{K, ok} || K <- lists:seq(1, 40)]),
                       a, "short", lists:duplicate(20, $x)]].

%% Encodings erl accepts but never writes; each NAME.out holds what erl's
%% term_to_binary makes of it.
decode_only() ->
    Node = <<100, 0, 13, "nonode@nohost">>,
    Remote = <<100, 0, 8, "a@remote">>,
    [{"do_small_atom", <<131, 115, 3, "abc">>},
     {"do_small_atom_latin1", <<131, 115, 2, 233, 255>>},
     {"do_atom_utf8_ascii", <<131, 118, 0, 3, "abc">>},
     {"do_small_atom_utf8_ascii", <<131, 119, 3, "abc">>},
     {"do_atom_utf8_latin1_range", <<131, 119, 2, 195, 169>>},
     {"do_empty_atom_utf8", <<131, 118, 0, 0>>}]
    ++ [{"do_float_ext_" ++ integer_to_list(I), float_ext(F)}
        || {I, F} <- lists:zip(lists:seq(1, 6), [0.0, 1.5, -2.0e-300, 1.0e300, 0.1, -0.0])]
    ++ [{"do_float_ext_short", <<131, 99, "2.5", 0:28/unit:8>>},
        {"do_pid_ext_local", <<131, 103, Node/binary, 0, 0, 0, 5, 0, 0, 0, 1, 0>>},
        {"do_pid_ext_remote", <<131, 103, Remote/binary, 0, 0, 0, 5, 0, 0, 0, 1, 2>>},
        {"do_port_ext_local", <<131, 102, Node/binary, 0, 0, 0, 5, 0>>},
        {"do_port_ext_remote", <<131, 102, Remote/binary, 0, 0, 0, 5, 1>>},
        {"do_v4_port_local", <<131, 120, Node/binary, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0>>},
        {"do_v4_port_big", <<131, 120, Remote/binary, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 3>>},
        {"do_reference_ext_local", <<131, 101, Node/binary, 0, 0, 0, 5, 0>>},
        {"do_reference_ext_remote", <<131, 101, Remote/binary, 0, 0, 0, 5, 1>>},
        {"do_new_reference_local", <<131, 114, 0, 3, Node/binary, 0, 0, 0, 0, 1, 0, 0, 0, 2,
                                     0, 0, 0, 3>>},
        {"do_new_reference_remote", <<131, 114, 0, 2, Remote/binary, 2, 0, 0, 0, 1,
                                      0, 0, 0, 2>>},
        {"do_newer_reference_short", <<131, 90, 0, 1, Node/binary, 0, 0, 0, 0, 0, 0, 0, 5>>},
        {"do_small_big_small", <<131, 110, 1, 0, 5>>},
        {"do_small_big_negzero", <<131, 110, 1, 1, 0>>},
        {"do_small_big_padded", <<131, 110, 9, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0>>},
        {"do_large_big_small", <<131, 111, 0, 0, 0, 2, 1, 1, 1>>},
        {"do_integer_small", <<131, 98, 0, 0, 0, 7>>},
        {"do_list_string", <<131, 108, 0, 0, 0, 2, 97, 1, 97, 2, 106>>},
        {"do_list_empty_tail", <<131, 108, 0, 0, 0, 0, 97, 1>>},
        {"do_list_nested_tail", <<131, 108, 0, 0, 0, 1, 97, 1, 108, 0, 0, 0, 1, 97, 2, 106>>},
        {"do_large_tuple_small", <<131, 105, 0, 0, 0, 2, 97, 1, 97, 2>>},
        {"do_bits_dirty", <<131, 77, 0, 0, 0, 2, 3, 1, 255>>},
        {"do_bits_8", <<131, 77, 0, 0, 0, 2, 8, 1, 255>>},
        {"do_bits_empty", <<131, 77, 0, 0, 0, 0, 0>>},
        {"do_map_unsorted", <<131, 116, 0, 0, 0, 2, 100, 0, 1, "b", 97, 1, 100, 0, 1, "a", 97, 2>>},
        {"do_trailing_bytes", <<131, 97, 1, 0, 1, 2>>},
        {"do_export_utf8_atoms", <<131, 113, 119, 5, "lists", 119, 3, "map", 97, 2>>},
        {"do_export_integer_arity", <<131, 113, 100, 0, 1, "m", 100, 0, 1, "f", 98, 0, 0, 0, 1>>},
        {"do_remote_ref_no_ids", <<131, 90, 0, 0, Remote/binary, 0, 0, 0, 1>>},
        {"do_remote_ref_five_ids", <<131, 90, 0, 5, Remote/binary, 0, 0, 0, 1, 1:32, 2:32, 3:32,
                                     4:32, 5:32>>},
        {"do_compressed_trailing", <<131, 80, 0, 0, 0, 4, (zlib:compress(<<97, 1, 97, 2>>))/binary>>},
        {"do_compressed_level1_inner", <<131, 80, 0, 0, 0, 3,
                                         (zlib:compress(<<104, 1, 106>>))/binary>>},
        {"do_new_pid_utf8_node", <<131, 88, 119, 13, "nonode@nohost", 0, 0, 0, 3, 0, 0, 0, 0,
                                   0, 0, 0, 0>>}].

float_ext(F) ->
    Text = list_to_binary(io_lib:format("~.20e", [F])),
    Pad = 31 - byte_size(Text),
    <<131, 99, Text/binary, 0:Pad/unit:8>>.

%% ---------------------------------------------------------------- bad input

bad_cases() ->
    Good = term_to_binary({a, <<1, 2, 3>>, [1, 2], 3.0, "str", #{k => v}, 1 bsl 70, self()}),
    Prefixes = [{"truncated_" ++ integer_to_list(N), binary:part(Good, 0, N)}
                || N <- lists:seq(0, byte_size(Good) - 1)],
    Z = term_to_binary(lists:duplicate(300, {a, b}), [compressed]),
    <<131, 80, Size:32, ZData/binary>> = Z,
    Prefixes ++
    [{"bad_version", <<130, 97, 1>>},
     {"unknown_tag", <<131, 200>>},
     {"unknown_tag_inner", <<131, 104, 2, 97, 1, 1>>},
     {"atom_cache_ref", <<131, 82, 0>>},
     {"nan_float", <<131, 70, 127, 248, 0, 0, 0, 0, 0, 0>>},
     {"inf_float", <<131, 70, 127, 240, 0, 0, 0, 0, 0, 0>>},
     {"float_ext_garbage", <<131, 99, "hello", 0:26/unit:8>>},
     {"bits_zero", <<131, 77, 0, 0, 0, 1, 0, 5>>},
     {"bits_nine", <<131, 77, 0, 0, 0, 1, 9, 5>>},
     {"bits_empty_nonzero", <<131, 77, 0, 0, 0, 0, 3>>},
     {"dup_map_keys", <<131, 116, 0, 0, 0, 2, 97, 1, 97, 1, 97, 1, 97, 2>>},
     {"fun_ext", <<131, 117, 0, 0, 0, 0, 88, 100, 0, 13, "nonode@nohost", 0, 0, 0, 9, 0, 0, 0, 0,
                   0, 0, 0, 0, 100, 0, 1, "a", 97, 0, 97, 0>>},
     {"huge_list", <<131, 108, 255, 255, 255, 255, 106>>},
     {"huge_tuple", <<131, 105, 255, 255, 255, 255, 106>>},
     {"huge_map", <<131, 116, 255, 255, 255, 255>>},
     {"huge_binary", <<131, 109, 255, 255, 255, 255, 0>>},
     {"huge_big", <<131, 111, 255, 255, 255, 255, 0, 1>>},
     {"huge_string", <<131, 107, 255, 255, 1, 2>>},
     {"long_atom", <<131, 100, 1, 0, (binary:copy(<<"a">>, 256))/binary>>},
     {"long_atom_utf8", <<131, 118, 2, 0, (binary:copy(<<206, 177>>, 256))/binary>>},
     {"bad_utf8_atom", <<131, 119, 2, 255, 254>>},
     {"pid_node_not_atom", <<131, 88, 97, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0>>},
     {"export_arity_not_small", <<131, 113, 100, 0, 1, "m", 100, 0, 1, "f", 98, 0, 0, 0, 1>>},
     {"export_module_not_atom", <<131, 113, 97, 1, 100, 0, 1, "f", 97, 1>>},
     {"local_ref_len_zero", <<131, 90, 0, 0, 100, 0, 13, "nonode@nohost", 0, 0, 0, 0>>},
     {"local_ref_len_four", <<131, 90, 0, 4, 100, 0, 13, "nonode@nohost", 0, 0, 0, 0, 0:128>>},
     {"export_arity_too_big", <<131, 113, 100, 0, 1, "m", 100, 0, 1, "f", 98, 0, 0, 1, 0>>},
     {"ref_len_six", <<131, 90, 0, 6, 100, 0, 1, "n", 0, 0, 0, 0, 0:192>>},
     {"compressed_size_too_small", <<131, 80, (Size - 1):32, ZData/binary>>},
     {"compressed_size_too_large", <<131, 80, (Size + 1):32, ZData/binary>>},
     {"compressed_truncated", <<131, 80, Size:32, (binary:part(ZData, 0, 10))/binary>>},
     {"compressed_garbage", <<131, 80, Size:32, "this is not zlib data at all">>},
     {"compressed_huge_declared", <<131, 80, 255, 255, 255, 255, ZData/binary>>},
     {"compressed_twice", <<131, 80, (byte_size(Z) - 1):32,
                            (zlib:compress(binary:part(Z, 1, byte_size(Z) - 1)))/binary>>},
     {"version_inside", <<131, 104, 1, 131, 97, 1>>}].

%% ---------------------------------------------------------------- beamr -> erl

check(Dir) ->
    {ok, Files} = file:list_dir(Dir),
    Names = lists:sort([filename:rootname(F) || F <- Files, filename:extension(F) =:= ".bin"]),
    lists:foreach(fun(Name) -> io:format("~s~n", [check_one(Dir, Name)]) end, Names).

check_one(Dir, Name) ->
    {ok, Bin} = file:read_file(filename:join(Dir, Name ++ ".bin")),
    {ok, ExprText} = file:read_file(filename:join(Dir, Name ++ ".expr")),
    try
        Expected = eval(binary_to_list(ExprText)),
        Got = binary_to_term(Bin),
        Again = case Bin of
                    <<131, 80, _/binary>> -> term_to_binary(Got, [compressed]);
                    _ -> term_to_binary(Got)
                end,
        if Got =/= Expected ->
                io_lib:format("FAIL ~s decoded ~w, expected ~w", [Name, Got, Expected]);
           Again =/= Bin ->
                io_lib:format("FAIL ~s erl encodes it as ~w, beamr wrote ~w", [Name, Again, Bin]);
           true ->
                "ok " ++ Name
        end
    catch Class:Reason ->
            io_lib:format("FAIL ~s ~w:~w", [Name, Class, Reason])
    end.

eval(Text) ->
    {ok, Tokens, _} = erl_scan:string(Text ++ "."),
    {ok, Exprs} = erl_parse:parse_exprs(Tokens),
    {value, Value, _} = erl_eval:exprs(Exprs, erl_eval:new_bindings()),
    Value.
