%% zlib's one-call functions: compress/uncompress (zlib format), zip/unzip
%% (raw deflate), gzip/gunzip (gzip format; gunzip takes several members),
%% byte for byte as erl writes them, and data_error for data that does
%% not inflate (the raising frame is left out: OTP raises it inside its
%% streaming NIFs).
-module(zlib_oneshot).
-export([main/0]).

t(F) -> try F() catch C:E -> {C, E} end.

main() ->
    Inputs = [<<>>, <<"hello">>, [<<"he">>, "llo", [$\s | <<"world">>]],
              binary:copy(<<"abcdefgh">>, 1000), list_to_binary(lists:seq(0, 255))],
    [begin
         Z = zlib:compress(I), R = zlib:zip(I), G = zlib:gzip(I),
         io:format("~w~n  ~w~n  ~w~n", [Z, R, G]),
         Bin = iolist_to_binary(I),
         io:format("  round trips: ~p~n",
                   [[zlib:uncompress(Z) =:= Bin, zlib:unzip(R) =:= Bin, zlib:gunzip(G) =:= Bin]])
     end || I <- lists:sublist(Inputs, 3)],
    [io:format("sizes: ~p~n", [[byte_size(zlib:F(I)) || F <- [compress, zip, gzip]]])
     || I <- lists:nthtail(3, Inputs)],
    io:format("two gzip members: ~p~n", [zlib:gunzip(<<(zlib:gzip("a"))/binary, (zlib:gzip("b"))/binary>>)]),
    io:format("trailing bytes: ~p~n", [t(fun() -> zlib:uncompress(<<(zlib:compress("a"))/binary, "x">>) end)]),
    Bad = [{uncompress, <<"junk">>}, {uncompress, <<>>}, {gunzip, <<"junk">>}, {gunzip, <<>>},
           {unzip, <<>>}, {uncompress, binary:part(zlib:compress("hello"), 0, 5)},
           {gunzip, binary:part(zlib:gzip("hello"), 0, 12)}],
    [io:format("~p(~w): ~p~n", [F, D, t(fun() -> zlib:F(D) end)]) || {F, D} <- Bad],
    [io:format("~p(a): ~p~n", [F, t(fun() -> zlib:F(a) end)]) || F <- [compress, zip, gzip]].
