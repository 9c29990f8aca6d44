-module(crypto_newer_digests).
-export([main/0]).

%% The digests newer releases' crypto adds (OTP 27: sm3, shake128,
%% shake256; OTP 29: sha512_224, sha512_256) and crypto:hash_xof/3
%% (OTP 26+, its length in bits), as each release offers them: one-shot
%% and streamed hashes, hash_info, HMAC, extendable output of several
%% lengths, and the errors (the NIFs' error maps printed sorted).
main() ->
    Offered = crypto:supports(hashs),
    Data = <<"The quick brown fox jumps over the lazy dog">>,
    [digest(A, lists:member(A, Offered), Data)
     || A <- [sm3, shake128, shake256, sha512_224, sha512_256, sha256]],
    Xof = erlang:function_exported(crypto, hash_xof, 3),
    io:format("hash_xof: ~p~n", [Xof]),
    [xof(A, Data) || Xof, A <- [shake128, shake256]],
    %% (OpenSSL answers some lengths of a fixed-size digest's XOF with
    %% whatever memory holds, so only one length is asked.)
    io:format("sha256 xof: ~p~n", [[try_hex(fun() -> crypto:hash_xof(sha256, Data, 64) end) || Xof]]),
    ok.

digest(A, false, _Data) ->
    io:format("~p: not offered~n", [A]);
digest(A, true, Data) ->
    io:format("~p: ~p~n", [A, try_hex(fun() -> crypto:hash(A, Data) end)]),
    io:format("  empty: ~p~n", [try_hex(fun() -> crypto:hash(A, <<>>) end)]),
    S = crypto:hash_update(crypto:hash_update(crypto:hash_init(A), <<"The quick ">>),
                           "brown fox jumps over the lazy dog"),
    io:format("  streamed: ~s~n", [hex(crypto:hash_final(S))]),
    Info = crypto:hash_info(A),
    io:format("  info: ~p~n", [[{K, maps:get(K, Info)} || K <- [type, size, block_size]]]),
    io:format("  hmac: ~p~n", [try_hex(fun() -> crypto:mac(hmac, A, <<"key">>, Data) end)]),
    io:format("  hmac init: ~p~n", [try_hex(fun() -> crypto:mac_final(crypto:mac_init(hmac, A, <<"key">>)) end)]).

xof(A, Data) ->
    [io:format("~p xof ~p: ~p~n", [A, L, try_hex(fun() -> crypto:hash_xof(A, Data, L) end)])
     || L <- [0, 1, 7, 8, 16, 33, 200, 1024]],
    io:format("~p xof iolist: ~p~n",
              [A, try_hex(fun() -> crypto:hash_xof(A, ["The quick", <<" brown fox">>, " jumps over the lazy dog"], 20) end)]),
    io:format("~p xof bad length: ~p ~p~n",
              [A, try_hex(fun() -> crypto:hash_xof(A, Data, -1) end),
               try_hex(fun() -> crypto:hash_xof(A, Data, x) end)]).

try_hex(F) ->
    try F() of
        Bin -> hex(Bin)
    catch
        C:{Tag, Info, Msg} when is_map(Info) -> {C, Tag, lists:sort(maps:to_list(Info)), Msg};
        C:R -> {C, R}
    end.

hex(Bin) -> binary_to_list(binary:encode_hex(Bin)).
