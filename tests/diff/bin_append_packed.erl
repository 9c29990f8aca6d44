-module(bin_append_packed).
-export([main/0]).

%% Appends of big-endian integers of at most 8 bytes in all, binary and
%% integers in X registers: the loader's packed form, which stores the
%% integers as one word. Each way out of it: a bignum or a non-integer
%% value, a head that is shared, not the latest version, not whole bytes
%% or a bitstring of another unit, and values saved across a call.
main() ->
    B = build(1000, <<>>),
    io:format("~p ~p ~p~n", [byte_size(B), erlang:crc32(B), binary:part(B, 0, 15)]),
    io:format("~p~n", [sum(B, 0)]),
    %% One 8-byte integer, eight 1-byte ones, 3 + 5 bytes.
    W = lists:foldl(fun(V, Acc) -> <<Acc/binary, V:64>> end, <<>>, vals()),
    io:format("~p~n", [W]),
    E = lists:foldl(fun(V, Acc) -> <<Acc/binary, V:8, (V + 1):8, (V + 2):8, (V + 3):8,
                                     (V + 4):8, (V + 5):8, (V + 6):8, (V + 7):8>> end,
                    <<>>, vals()),
    io:format("~p~n", [E]),
    T = lists:foldl(fun(V, Acc) -> <<Acc/binary, V:24, V:40>> end, <<>>, vals()),
    io:format("~p~n", [T]),
    %% A bitstring head of unit 1 that is whole bytes, and one that is not.
    Bits = lists:foldl(fun(V, Acc) -> <<Acc/bitstring, V:16>> end, <<>>, lists:seq(1, 50)),
    io:format("~p~n", [erlang:crc32(Bits)]),
    Odd = lists:foldl(fun(V, Acc) -> <<Acc/bitstring, V:16>> end, <<1:3>>, lists:seq(1, 50)),
    io:format("~p ~p~n", [bit_size(Odd), Odd]),
    %% Not the latest version: the second append copies.
    B1 = <<B/binary, 1:32, 2:8>>,
    B2 = <<B/binary, 3:32, 4:8>>,
    io:format("~p ~p~n", [binary:part(B1, byte_size(B1), -5), binary:part(B2, byte_size(B2), -5)]),
    %% Shared with another process, then appended to again.
    Self = self(),
    P = spawn(fun() -> receive Bin -> Self ! {self(), byte_size(Bin)} end end),
    P ! B1,
    receive {P, N} -> io:format("~p~n", [N]) end,
    B3 = build(10, B1),
    io:format("~p~n", [binary:part(B3, byte_size(B3), -10)]),
    %% Values saved across a call (Y registers).
    io:format("~p~n", [across(<<"head">>, 7, 9)]),
    %% Bad values: the error and its error_info.
    Cases = [fun() -> <<(id(B))/binary, (id(a)):32, 1:8>> end,
             fun() -> <<(id(B))/binary, 1:32, (id(2.0)):8>> end,
             fun() -> <<(id(B))/binary, (id(1 bsl 64)):32, 1:8>> end,
             fun() -> <<(id(<<1:3>>))/binary, 1:32, 1:8>> end,
             fun() -> <<(id({x}))/binary, 1:32, 1:8>> end],
    [io:format("~p~n", [catch_it(F)]) || F <- Cases],
    ok.

vals() ->
    [0, 1, -1, 255, -256, 16#7FFFFFFF, -16#80000000, (1 bsl 59) - 1, -(1 bsl 59),
     1 bsl 59, 1 bsl 63, (1 bsl 64) + 5, -(1 bsl 70) - 3, 16#FEDCBA9876543210].

build(0, B) -> B;
build(N, B) -> build(N - 1, <<B/binary, N:32/big, (N rem 256):8>>).

sum(<<X:32/big, Y:8, Rest/binary>>, Acc) -> sum(Rest, Acc + X + Y);
sum(<<>>, Acc) -> Acc.

across(B, X, Y) ->
    Z = id(X) + Y,
    B1 = <<B/binary, X:16, Y:8, Z:8>>,
    _ = id(B1),
    <<B1/binary, X:8, Y:8>>.

catch_it(F) ->
    try F() catch C:R:S -> {C, R, hd(S)} end.

id(X) -> X.
