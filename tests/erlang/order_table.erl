%% The term-order table for beamr's `order` tests.
%%
%% main(Path) builds a corpus of diverse terms and writes to Path:
%%
%%   N:32                                   number of terms
%%   N times: Len:32, term_to_binary(T):Len
%%   N*N bytes, row-major (A = term I, B = term J):
%%     bit 0: A < B     bit 1: A == B     bit 2: A =:= B
%%
%% All expected results come from this erl; the Rust side decodes the
%% terms with beamr_core::etf and checks beamr's order against the table.
-module(order_table).
-export([main/1, terms/0]).

main(Path) ->
    Terms = terms(),
    Encoded = [begin B = term_to_binary(T), <<(byte_size(B)):32, B/binary>> end
               || T <- Terms],
    Table = [<<(flags(A, B))>> || A <- Terms, B <- Terms],
    ok = file:write_file(Path, [<<(length(Terms)):32>>, Encoded, Table]).

flags(A, B) ->
    bit(A < B) bor (bit(A == B) bsl 1) bor (bit(A =:= B) bsl 2).

bit(true) -> 1;
bit(false) -> 0.

terms() ->
    numbers() ++ atoms() ++ refs() ++ funs() ++ ports() ++ pids()
        ++ tuples() ++ maps() ++ lists() ++ bitstrings().

numbers() ->
    Big = [1 bsl 59 - 1, 1 bsl 59, -(1 bsl 59), -(1 bsl 59) - 1,
           1 bsl 53, 1 bsl 53 + 1, 1 bsl 53 - 1, -(1 bsl 53) - 1,
           1 bsl 63, 1 bsl 63 + 1, 1 bsl 63 - 1, -(1 bsl 63), -(1 bsl 63) - 1,
           1 bsl 64, -(1 bsl 64), 1 bsl 100, 1 bsl 100 + 1, 1 bsl 100 - 1,
           -(1 bsl 100), 1 bsl 1100, -(1 bsl 1100),
           123456789012345678901234567890, trunc(1.0e300), trunc(1.0e300) + 1,
           trunc(1.0e300) - 1],
    Floats = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.5, 1.0e-300, 5.0e-324,
              float(1 bsl 53), float(1 bsl 53) + 2.0, float(1 bsl 59),
              float(1 bsl 63), -float(1 bsl 63), float(1 bsl 64), float(1 bsl 100),
              -float(1 bsl 100), 1.0e300, -1.0e300, 1.7976931348623157e308,
              -1.7976931348623157e308, 3.0, 42.0],
    [0, 1, -1, 2, 3, 42, -42, 255, 256, 1000000] ++ Big ++ Floats.

atoms() ->
    [a, b, aa, ab, 'A', 'Z', '', ok, error, 'hello world', z, zz, 'é', 'ü',
     '日本', 'a\x{1F600}', nonode@nohost, 'a@b', true, false].

refs() ->
    Node = fun(N) -> B = atom_to_binary(N, utf8), <<119, (byte_size(B)), B/binary>> end,
    Ref = fun(N, Cr, Ids) ->
                  binary_to_term(<<131, 90, (length(Ids)):16, (Node(N))/binary, Cr:32,
                                   << <<I:32>> || I <- Ids >>/binary>>)
          end,
    [make_ref(), make_ref(), make_ref(),
     Ref(nonode@nohost, 0, [1, 2, 3]), Ref(nonode@nohost, 0, [3, 2, 1]),
     Ref(nonode@nohost, 0, [0, 0, 1]), Ref(nonode@nohost, 0, [5, 0, 0]),
     Ref('a@b', 1, [1, 2, 3]), Ref('a@b', 2, [1, 2, 3]), Ref('a@b', 1, [1, 2, 4]),
     Ref('b@b', 1, [0, 0, 0]), Ref('a@b', 1, [1, 2, 3, 0, 0]),
     Ref('a@b', 1, [1, 2, 3, 0, 1]), Ref('a@b', 1, [9]), Ref('a@b', 1, [1, 2])].

funs() ->
    X = 1, Y = 2.0,
    [fun() -> ok end, fun(A) -> A end, fun(A, B) -> {A, B} end,
     fun() -> X end, fun() -> Y end, fun() -> {X, Y} end,
     fun lists:map/2, fun lists:map/3, fun lists:foldl/3, fun erlang:abs/1,
     fun erlang:'+'/2, fun order_table:terms/0].

ports() ->
    Node = fun(N) -> B = atom_to_binary(N, utf8), <<119, (byte_size(B)), B/binary>> end,
    Port = fun(N, Id, Cr) ->
                   binary_to_term(<<131, 89, (Node(N))/binary, Id:32, Cr:32>>)
           end,
    V4Port = fun(N, Id, Cr) ->
                     binary_to_term(<<131, 120, (Node(N))/binary, Id:64, Cr:32>>)
             end,
    [hd(erlang:ports()), Port(nonode@nohost, 1, 0), Port(nonode@nohost, 7, 0),
     Port('a@b', 0, 1), Port('a@b', 3, 1), Port('a@b', 3, 2), Port('b@b', 1, 1),
     V4Port('a@b', 1 bsl 40, 1), Port('Z@b', 9, 1)].

pids() ->
    Node = fun(N) -> B = atom_to_binary(N, utf8), <<119, (byte_size(B)), B/binary>> end,
    Pid = fun(N, Id, Ser, Cr) ->
                  binary_to_term(<<131, 88, (Node(N))/binary, Id:32, Ser:32, Cr:32>>)
          end,
    [self(), list_to_pid("<0.1.0>"), list_to_pid("<0.1.2>"), list_to_pid("<0.2.1>"),
     list_to_pid("<0.32767.0>"), list_to_pid("<0.0.1>"), list_to_pid("<0.0.0>"),
     Pid('a@b', 1, 0, 1), Pid('a@b', 1, 0, 2), Pid('b@b', 1, 0, 1), Pid('a@b', 2, 0, 1),
     Pid('a@b', 1, 1, 1), Pid('a@b', 40000, 0, 1), Pid('a@b', 1, 2, 1),
     Pid('Z@b', 5, 0, 1), Pid('zz@b', 0, 0, 1)].

tuples() ->
    [{}, {1}, {2}, {1.0}, {a}, {1, 2}, {2, 1}, {1, 2.0}, {1.0, 2}, {1, 2, 3},
     {a, b}, {1, {2, [3]}}, {1, {2, [3.0]}}, {{}}, {[]}, {#{}},
     list_to_tuple(lists:seq(1, 40)), list_to_tuple(lists:seq(1, 39) ++ [40.0])].

maps() ->
    Big = fun(Keys, V) -> maps:from_list([{K, V(K)} || K <- Keys]) end,
    Id = fun(K) -> K end,
    [#{}, #{a => 1}, #{a => 1.0}, #{a => 2}, #{b => 1}, #{1 => a}, #{1.0 => a},
     #{a => 1, b => 2}, #{a => 1, c => 2}, #{a => 2, b => 1}, #{1 => a, 2 => b},
     #{1 => a, 2.0 => b}, #{1.0 => a, 2 => b}, #{0.0 => x}, #{[] => x},
     #{{1} => x}, #{{1.0} => x}, #{#{1 => 2} => x}, #{<<1>> => x, "1" => y},
     Big(lists:seq(1, 33), Id), Big(lists:seq(1, 33), fun(K) -> float(K) end),
     Big(lists:seq(2, 34), Id), Big(lists:seq(1, 32) ++ [1.0], Id),
     Big(lists:seq(1, 32) ++ [100], Id), Big(lists:seq(1, 40), Id),
     Big(lists:seq(1, 40), fun(K) -> K + 1 end),
     Big(lists:seq(1, 39) ++ [1 bsl 70], Id),
     Big([list_to_atom("k" ++ integer_to_list(I)) || I <- lists:seq(1, 35)], Id),
     Big([{I} || I <- lists:seq(1, 35)], Id),
     Big([<<I:16>> || I <- lists:seq(1, 35)], Id),
     Big(lists:seq(1, 200), Id),
     Big(lists:seq(1, 200), fun(K) when K =:= 150 -> 0; (K) -> K end)].

lists() ->
    [[], [1], [1.0], [2], [1, 2], [1, 2.0], [1, 3], [1 | 2], [1 | 3], [1 | 2.0],
     [1, 2 | 3], [a], [a, b], "abc", "abd", "ab", [[1]], [[]], [1, 2, 3, 4],
     [{}], [#{}], [<<>>], lists:seq(1, 100), lists:seq(1, 99) ++ [100.0],
     lists:seq(1, 99) ++ [101]].

bitstrings() ->
    Large = list_to_binary(lists:seq(1, 100)),
    [<<>>, <<0>>, <<1>>, <<255>>, <<1, 2>>, <<1, 2, 3>>, <<1, 3>>, <<"abc">>,
     <<0:1>>, <<1:1>>, <<1:2>>, <<2:2>>, <<1, 1:1>>, <<1, 0:1>>, <<1, 0:2>>,
     <<255, 1:3>>, <<255, 7:3>>, Large, binary:part(Large, 1, 70),
     <<Large/binary, 1:1>>].
