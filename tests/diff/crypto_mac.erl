%% crypto's CMAC and Poly1305 beside HMAC: RFC 4493's AES-CMAC vectors,
%% CMAC over each AES key size (by name and by the aes_cbc alias) and
%% triple DES, RFC 8439's Poly1305 vector, each in one call, streamed in
%% pieces (a megabyte in 1000-byte pieces too) and truncated (macN,
%% mac_finalN), crypto:supports(macs), and the errors crypto raises for
%% an unknown MAC, cipher or digest, a key of the wrong size and bad text.
-module(crypto_mac).
-export([main/0]).

hex(Bin) -> binary:encode_hex(Bin).

unhex(Hex) -> binary:decode_hex(iolist_to_binary(string:replace(Hex, " ", "", all))).

main() ->
    io:format("macs: ~p~n", [crypto:supports(macs)]),
    K128 = unhex("2b7e1516 28aed2a6 abf71588 09cf4f3c"),
    M16 = unhex("6bc1bee2 2e409f96 e93d7e11 7393172a"),
    M40 = unhex("6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51 30c81c46 a35ce411"),
    M64 = unhex("6bc1bee2 2e409f96 e93d7e11 7393172a ae2d8a57 1e03ac9c 9eb76fac 45af8e51"
                " 30c81c46 a35ce411 e5fbc119 1a0a52ef f69f2445 df4f9b17 ad2b417b e66c3710"),
    [io:format("cmac rfc4493 ~p bytes: ~s~n", [byte_size(M), hex(crypto:mac(cmac, aes_128_cbc, K128, M))])
     || M <- [<<>>, M16, M40, M64]],
    Data = <<"The quick brown fox jumps over the lazy dog">>,
    Keys = [{aes_128_cbc, binary:copy(<<1>>, 16)}, {aes_192_cbc, binary:copy(<<2>>, 24)},
            {aes_256_cbc, binary:copy(<<3>>, 32)}, {des_ede3_cbc, <<"0123456789abcdef01234567">>}],
    [begin
         Mac = crypto:mac(cmac, C, K, Data),
         io:format("cmac ~p: ~s~n", [C, hex(Mac)]),
         io:format("  iolist: ~p~n", [crypto:mac(cmac, C, [K], ["The quick ", [<<"brown fox">>], " jumps over the lazy dog"]) =:= Mac]),
         S0 = crypto:mac_init(cmac, C, K),
         S1 = crypto:mac_update(S0, <<"The quick brown fox ">>),
         S2 = crypto:mac_update(S1, "jumps over the lazy dog"),
         io:format("  streamed: ~p~n", [crypto:mac_final(S2) =:= Mac]),
         io:format("  macN 4: ~s~n", [hex(crypto:macN(cmac, C, K, Data, 4))])
     end || {C, K} <- Keys],
    [io:format("cmac aes_cbc alias, ~p-byte key: ~p~n",
               [byte_size(K), crypto:mac(cmac, aes_cbc, K, Data) =:= crypto:mac(cmac, C, K, Data)])
     || {C, K} <- Keys, C =/= des_ede3_cbc],
    PolyKey = unhex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"),
    Msg = <<"Cryptographic Forum Research Group">>,
    Tag = crypto:mac(poly1305, PolyKey, Msg),
    io:format("poly1305 rfc8439: ~s~n", [hex(Tag)]),
    io:format("  mac/4 undefined: ~p~n", [crypto:mac(poly1305, undefined, PolyKey, Msg) =:= Tag]),
    P0 = crypto:mac_init(poly1305, PolyKey),
    P1 = crypto:mac_update(P0, <<"Cryptographic ">>),
    P2 = crypto:mac_update(P1, [<<"Forum">>, " Research Group"]),
    io:format("  streamed: ~p~n", [crypto:mac_final(P2) =:= Tag]),
    io:format("  macN 8: ~s~n", [hex(crypto:macN(poly1305, PolyKey, Msg, 8))]),
    io:format("  finalN 5: ~s~n", [hex(crypto:mac_finalN(crypto:mac_update(crypto:mac_init(poly1305, PolyKey), Msg), 5))]),
    io:format("  empty: ~s~n", [hex(crypto:mac(poly1305, PolyKey, <<>>))]),
    Big = binary:copy(<<"0123456789">>, 100000),
    Pieces = [binary:part(Big, I, 1000) || I <- lists:seq(0, byte_size(Big) - 1000, 1000)],
    [begin
         S = lists:foldl(fun(Piece, St) -> crypto:mac_update(St, Piece) end, crypto:mac_init(T, Sub, K), Pieces),
         One = crypto:mac(T, Sub, K, Big),
         io:format("~p megabyte: ~s, streamed ~p~n", [T, hex(One), crypto:mac_final(S) =:= One])
     end || {T, Sub, K} <- [{cmac, aes_256_cbc, binary:copy(<<3>>, 32)}, {poly1305, undefined, PolyKey},
                            {hmac, sha256, <<"key">>}]],
    [bad(F) || F <- [fun() -> crypto:mac(foo, sha256, <<"k">>, <<"d">>) end,
                     fun() -> crypto:mac(poly1305, <<"short">>, <<"d">>) end,
                     fun() -> crypto:mac(cmac, foo, K128, <<"d">>) end,
                     fun() -> crypto:mac(cmac, aes_128_cbc, <<"short">>, <<"d">>) end,
                     fun() -> crypto:mac(cmac, des_ede3_cbc, K128, <<"d">>) end,
                     fun() -> crypto:mac(cmac, aes_128_cbc, K128, foo) end,
                     fun() -> crypto:mac(poly1305, PolyKey, [1 | 2]) end,
                     fun() -> crypto:mac_init(foo, sha256, <<"k">>) end,
                     fun() -> crypto:mac_init(poly1305, <<"short">>) end,
                     fun() -> crypto:mac_init(cmac, foo, K128) end,
                     fun() -> crypto:mac_init(cmac, aes_256_cbc, K128) end,
                     fun() -> crypto:mac_init(hmac, foo, <<"k">>) end,
                     fun() -> crypto:mac_update(crypto:mac_init(cmac, aes_128_cbc, K128), foo) end,
                     fun() -> crypto:mac_update(make_ref(), <<"d">>) end,
                     fun() -> crypto:mac_final(make_ref()) end]],
    ok.

bad(F) ->
    try F() of
        V -> io:format("no error: ~p~n", [V])
    catch
        C:R:St -> io:format("~p:~p ~p~n", [C, line(R), [{M, Fn, unref(A)} || {M, Fn, A, _} <- St, M =:= crypto]])
    end.

%% mac.c's lines are compared on OTP 25 and 27, whose sources beamr's
%% lines were checked against; OTP 29's are not (its source was not at
%% hand), so only the file and message are compared there.
line({Tag, {File, Line}, Msg}) when is_list(File) ->
    case list_to_integer(erlang:system_info(otp_release)) >= 28 of
        true -> {Tag, {File, line}, Msg};
        false -> {Tag, {File, Line}, Msg}
    end;
line(Other) -> Other.

%% References print differently on each runtime.
unref([H | T]) -> [unref(H) | unref(T)];
unref(R) when is_reference(R) -> ref;
unref(Other) -> Other.
