-module(str_hashes_checksums).
-export([main/0]).

%% Deterministic hashes and checksums of terms and binaries.
main() ->
    Terms = [0, 1, -1, 1 bsl 70, 1.5, atom, "string", <<"bin">>, {t, 1}, [a | b], #{k => v}, []],
    io:format("~w~n", [[erlang:phash2(T) || T <- Terms]]),
    io:format("~w~n", [[erlang:phash2(T, 1000) || T <- Terms]]),
    io:format("~w~n", [[erlang:phash(T, 1 bsl 32) || T <- Terms]]),
    Data = <<"The quick brown fox jumps over the lazy dog">>,
    io:format("~w~n", [[erlang:crc32(Data), erlang:adler32(Data), erlang:crc32(["a", <<"b">>])]]),
    io:format("~w~n", [erlang:crc32(erlang:crc32(<<"ab">>), <<"cd">>) =:= erlang:crc32(<<"abcd">>)]),
    io:format("~w~n", [erlang:md5(Data)]),
    io:format("~w~n", [[byte_size(term_to_binary(T)) || T <- Terms]]),
    ok.
