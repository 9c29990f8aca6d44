-module(bin_append_ints).
-export([main/0]).

%% Appending integer segments of whole-byte sizes to a binary: in place
%% while the binary is the latest version of a writable one, by copying
%% when it is shared or not the latest, and the errors of bad segments.
main() ->
    B = build(300, <<>>),
    io:format("~p ~p~n", [byte_size(B), erlang:crc32(B)]),
    io:format("~p~n", [binary:part(B, 0, 40)]),
    %% Two appends to the same version: the second copies.
    B1 = <<B/binary, 1:32>>,
    B2 = <<B/binary, 2:32, 3:8>>,
    io:format("~p ~p~n", [binary:part(B1, byte_size(B1), -6), binary:part(B2, byte_size(B2), -6)]),
    B3 = <<B1/binary, 4:16/little>>,
    io:format("~p~n", [binary:part(B3, byte_size(B3), -8)]),
    %% Shared with another process: no longer extended in place.
    Self = self(),
    P = spawn(fun() -> receive Bin -> Self ! {self(), erlang:crc32(Bin)} end end),
    P ! B3,
    receive {P, Crc} -> io:format("~p~n", [Crc =:= erlang:crc32(B3)]) end,
    B4 = <<B3/binary, 16#AABBCCDD:32>>,
    B5 = <<B4/binary, 16#EE:8>>,
    io:format("~p ~p~n", [binary:part(B5, byte_size(B5), -9), byte_size(B3)]),
    %% Every size and byte order, negative values and big integers.
    Vals = [0, 1, -1, 255, 256, -256, 16#7FFFFFFF, -16#80000000, 16#123456789A,
            (1 bsl 59) - 1, -(1 bsl 59), 1 bsl 59, 1 bsl 63, (1 bsl 64) + 5,
            -(1 bsl 70) - 3, 16#FEDCBA9876543210],
    S = lists:foldl(fun(V, Acc) -> sizes(Acc, V) end, <<>>, Vals),
    io:format("~p~n~p~n", [byte_size(S), S]),
    %% A bitstring head: not whole bytes, so the generic path appends.
    Bits = lists:foldl(fun(V, Acc) -> <<Acc/bitstring, V:8>> end, <<5:3>>, lists:seq(1, 40)),
    io:format("~p ~p~n", [bit_size(Bits), Bits]),
    %% A tail of a writable binary that ends at its end but is not whole bytes.
    W = build(20, <<>>),
    <<_:3, Odd/bitstring>> = W,
    io:format("~p~n", [catch_it(fun() -> <<Odd/binary, 1:8>> end)]),
    <<_:8, Even/binary>> = W,
    E2 = <<Even/binary, 7:8, 8:16>>,
    io:format("~p~n", [binary:part(E2, byte_size(E2), -5)]),
    %% Bad segments raise with the BEAM's error_info.
    Cases = [fun() -> <<(id(B))/binary, (id(a)):32>> end,
             fun() -> <<(id(B))/binary, 1:32, (id(1.5)):8>> end,
             fun() -> <<(id(B))/binary, (id(<<>>)):8>> end,
             fun() -> <<(id(foo))/binary, 1:8>> end,
             fun() -> <<(id(<<1:3>>))/binary, 1:8>> end,
             fun() -> <<(id(B))/binary, (id([])):64/little>> end],
    [io:format("~p~n", [catch_it(F)]) || F <- Cases],
    %% In a guard: a failing construction fails the guard.
    io:format("~p ~p~n", [guarded(B, 1), guarded(B, x)]),
    ok.

build(0, B) -> B;
build(N, B) -> build(N - 1, <<B/binary, N:32/big, (N rem 256):8, (-N):16/little>>).

sizes(Acc, V) ->
    <<Acc/binary, V:8, V:16, V:24, V:32, V:40, V:48, V:56, V:64,
      V:16/little, V:24/little, V:32/little, V:64/little, V:64/signed>>.

guarded(B, X) when byte_size(<<B/binary, X:8>>) > 0 -> yes;
guarded(_, _) -> no.

catch_it(F) ->
    try F() catch C:R:S -> {C, R, hd(S)} end.

id(X) -> X.
