-module(zlib_stream).
-export([main/0]).

%% zlib's streaming API: deflate and inflate in parts, flush modes,
%% window bits (zlib, raw, gzip, detected), dictionaries, safeInflate,
%% end-of-stream behaviours, and the errors of each state.
main() ->
    Data = iolist_to_binary([[integer_to_list(N), $,] || N <- lists:seq(1, 5000)]),
    deflate_in_parts(Data),
    flushes(Data),
    window_bits(Data),
    levels(Data),
    dictionaries(),
    safe_inflate(Data),
    end_of_stream(),
    states(),
    checksums(Data).

r(F) -> try F() of V -> {ok, V} catch C:R -> {C, R} end.

deflate_in_parts(Data) ->
    Z = zlib:open(),
    ok = zlib:deflateInit(Z),
    <<A:1000/binary, B:3000/binary, C/binary>> = Data,
    Parts = [zlib:deflate(Z, A), zlib:deflate(Z, [B]), zlib:deflate(Z, C, finish)],
    ok = zlib:deflateEnd(Z),
    Compressed = iolist_to_binary(Parts),
    io:format("parts = compress ~p~n", [Compressed =:= zlib:compress(Data)]),
    io:format("compressed ~p ~p~n", [byte_size(Compressed), erlang:crc32(Compressed)]),
    ok = zlib:inflateInit(Z),
    <<X:10/binary, Y/binary>> = Compressed,
    Out = [zlib:inflate(Z, X), zlib:inflate(Z, Y)],
    ok = zlib:inflateEnd(Z),
    io:format("round trip ~p~n", [iolist_to_binary(Out) =:= Data]),
    ok = zlib:close(Z).

flushes(Data) ->
    Z = zlib:open(),
    ok = zlib:deflateInit(Z, best_speed),
    S = iolist_to_binary(zlib:deflate(Z, Data, sync)),
    F = iolist_to_binary(zlib:deflate(Z, <<"more">>, full)),
    E = iolist_to_binary(zlib:deflate(Z, <<>>, finish)),
    ok = zlib:deflateEnd(Z),
    io:format("sync tail ~p~n", [binary:part(S, byte_size(S) - 4, 4)]),
    io:format("sizes ~p ~p ~p crc ~p~n",
              [byte_size(S), byte_size(F), byte_size(E), erlang:crc32([S, F, E])]),
    io:format("inflates ~p~n", [zlib:uncompress([S, F, E]) =:= <<Data/binary, "more">>]),
    ok = zlib:deflateInit(Z),
    ok = zlib:deflateReset(Z),
    R = iolist_to_binary(zlib:deflate(Z, <<"after reset">>, finish)),
    io:format("reset ~p~n", [zlib:uncompress(R)]),
    ok = zlib:deflateEnd(Z),
    zlib:close(Z).

window_bits(Data) ->
    [begin
         Z = zlib:open(),
         ok = zlib:deflateInit(Z, default, deflated, Bits, 8, default),
         C = iolist_to_binary(zlib:deflate(Z, Data, finish)),
         ok = zlib:deflateEnd(Z),
         ok = zlib:inflateInit(Z, InBits),
         D = iolist_to_binary(zlib:inflate(Z, C)),
         ok = zlib:inflateEnd(Z),
         zlib:close(Z),
         io:format("bits ~p/~p: ~p bytes, first ~p, back ~p~n",
                   [Bits, InBits, byte_size(C), binary:first(C), D =:= Data])
     end || {Bits, InBits} <- [{15, 15}, {-15, -15}, {31, 31}, {9, 15}, {-9, -9},
                               {31, 47}, {15, 47}]],
    io:format("gzip ~p~n", [zlib:gunzip(zlib:gzip(Data)) =:= Data]).

levels(Data) ->
    [begin
         Z = zlib:open(),
         ok = zlib:deflateInit(Z, L),
         C = iolist_to_binary(zlib:deflate(Z, Data, finish)),
         ok = zlib:deflateEnd(Z),
         zlib:close(Z),
         io:format("level ~p: ~p ~p~n", [L, byte_size(C), erlang:crc32(C)])
     end || L <- [none, best_speed, default, best_compression, 0, 3, 9]],
    Z = zlib:open(),
    ok = zlib:deflateInit(Z, default),
    A = zlib:deflate(Z, binary:part(Data, 0, 5000)),
    ok = zlib:deflateParams(Z, best_compression, default),
    B = zlib:deflate(Z, binary:part(Data, 5000, byte_size(Data) - 5000), finish),
    ok = zlib:deflateEnd(Z),
    zlib:close(Z),
    io:format("params ~p~n", [zlib:uncompress([A, B]) =:= Data]).

dictionaries() ->
    Dict = <<"the quick brown fox jumps over the lazy dog">>,
    Z = zlib:open(),
    ok = zlib:deflateInit(Z),
    Adler = zlib:deflateSetDictionary(Z, Dict),
    io:format("dict adler ~p ~p~n", [Adler, Adler =:= erlang:adler32(Dict)]),
    C = iolist_to_binary(zlib:deflate(Z, <<"the lazy dog jumps over the quick fox">>, finish)),
    ok = zlib:deflateEnd(Z),
    ok = zlib:inflateInit(Z),
    {need_dictionary, Need, []} = zlib:inflate(Z, C, [{exception_on_need_dict, false}]),
    io:format("needs ~p~n", [Need =:= Adler]),
    ok = zlib:inflateSetDictionary(Z, Dict),
    io:format("with dict ~p~n", [iolist_to_binary(zlib:inflate(Z, []))]),
    ok = zlib:inflateEnd(Z),
    ok = zlib:inflateInit(Z),
    io:format("exception ~p~n", [r(fun() -> zlib:inflate(Z, C) end) =:= {error, {need_dictionary, Adler}}]),
    zlib:close(Z).

safe_inflate(Data) ->
    Big = binary:copy(Data, 20),
    Z = zlib:open(),
    ok = zlib:inflateInit(Z),
    {Steps, Out} = safe_loop(Z, zlib:safeInflate(Z, zlib:compress(Big)), 1, []),
    ok = zlib:inflateEnd(Z),
    zlib:close(Z),
    io:format("safe ~p ~p~n", [Steps > 1, iolist_to_binary(Out) =:= Big]).

safe_loop(Z, {continue, Out}, N, Acc) -> safe_loop(Z, zlib:safeInflate(Z, []), N + 1, [Acc, Out]);
safe_loop(_Z, {finished, Out}, N, Acc) -> {N, [Acc, Out]}.

end_of_stream() ->
    C = zlib:compress(<<"hello">>),
    Z = zlib:open(),
    ok = zlib:inflateInit(Z),
    io:format("cut ~p~n", [iolist_to_binary(zlib:inflate(Z, [C, <<"trailing">>]))]),
    ok = zlib:inflateEnd(Z),
    ok = zlib:inflateInit(Z, 15, error),
    io:format("error ~p~n", [r(fun() -> zlib:inflate(Z, [C, <<"trailing">>]) end)]),
    catch zlib:inflateEnd(Z),
    ok = zlib:inflateInit(Z, 31, reset),
    G = [zlib:gzip(<<"one ">>), zlib:gzip(<<"two">>)],
    io:format("reset ~p~n", [iolist_to_binary(zlib:inflate(Z, G))]),
    ok = zlib:inflateEnd(Z),
    io:format("gunzip members ~p~n", [zlib:gunzip(G)]),
    zlib:close(Z).

states() ->
    Z = zlib:open(),
    io:format("~p~n", [[r(fun() -> zlib:deflate(Z, <<"x">>) end),
                        r(fun() -> zlib:inflate(Z, <<"x">>) end),
                        r(fun() -> zlib:deflateEnd(Z) end),
                        r(fun() -> zlib:inflateEnd(Z) end),
                        r(fun() -> zlib:deflateInit(Z) end),
                        r(fun() -> zlib:deflateInit(Z) end),
                        r(fun() -> zlib:inflateInit(Z) end),
                        r(fun() -> iolist_to_binary(zlib:deflate(Z, <<"abc">>)) end),
                        r(fun() -> zlib:deflateEnd(Z) end),
                        r(fun() -> zlib:deflateEnd(Z) end),
                        r(fun() -> zlib:inflateInit(Z) end),
                        r(fun() -> zlib:inflate(Z, <<1, 2, 3, 4, 5, 6, 7, 8>>) end),
                        r(fun() -> zlib:inflateEnd(Z) end),
                        r(fun() -> zlib:inflateInit(Z) end),
                        r(fun() -> zlib:inflateEnd(Z) end),
                        r(fun() -> zlib:deflateInit(Z, 99) end),
                        r(fun() -> zlib:deflate(Z, <<>>, bad) end),
                        r(fun() -> zlib:inflateInit(Z, 99) end),
                        r(fun() -> zlib:close(Z) end),
                        r(fun() -> zlib:close(Z) end),
                        r(fun() -> zlib:deflateInit(Z) end)]]),
    Z2 = zlib:open(),
    ok = zlib:deflateInit(Z2),
    Self = self(),
    spawn(fun() -> Self ! r(fun() -> zlib:deflate(Z2, <<"a">>) end) end),
    receive M -> io:format("other process ~p~n", [M]) end,
    spawn(fun() ->
                  receive go -> Self ! {moved, r(fun() -> iolist_to_binary(zlib:deflate(Z2, <<"a">>, finish)) end)} end
          end) ! go,
    receive {moved, _} = Moved0 -> io:format("~p~n", [Moved0]) end,
    Pid = spawn(fun() ->
                        receive go -> Self ! {moved, r(fun() -> zlib:uncompress(zlib:deflate(Z2, <<"b">>, finish)) end)} end
                end),
    ok = zlib:set_controlling_process(Z2, Pid),
    Pid ! go,
    receive {moved, _} = Moved -> io:format("~p~n", [Moved]) end,
    io:format("~p~n", [r(fun() -> zlib:close(Z2) end)]).

checksums(Data) ->
    <<A:777/binary, B/binary>> = Data,
    io:format("crc32 ~p ~p~n", [erlang:crc32(Data),
                                erlang:crc32_combine(erlang:crc32(A), erlang:crc32(B), byte_size(B))]),
    io:format("adler32 ~p ~p~n", [erlang:adler32(Data),
                                  erlang:adler32_combine(erlang:adler32(A), erlang:adler32(B), byte_size(B))]),
    io:format("~p~n", [[r(fun() -> erlang:crc32_combine(-1, 0, 0) end),
                        r(fun() -> erlang:adler32_combine(0, 1 bsl 32, 0) end),
                        r(fun() -> erlang:crc32_combine(0, 0, -1) end),
                        erlang:adler32_combine(1, 1, 0), erlang:crc32_combine(0, 0, 0)]]).
