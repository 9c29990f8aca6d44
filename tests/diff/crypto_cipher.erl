%% crypto's symmetric ciphers on OpenSSL: cipher_info/1, info_lib/0's
%% shape, every cipher crypto:supports(ciphers) lists round-trips, AES
%% (CBC, CTR, ECB, CFB8, CFB128, OFB in 128/192/256 bits), ChaCha20 and
%% triple DES one-shot and streamed (crypto_init/update/final,
%% crypto_get_data) with each padding option, and the errors for a bad
%% cipher, key, IV, data or option.
-module(crypto_cipher).
-export([main/0]).

hex(Bin) -> crypto_result:hex(Bin).

t(F) -> crypto_result:t(F).

key(N) -> list_to_binary(lists:seq(1, N)).

main() ->
    [{Name, Num, Text}] = crypto:info_lib(),
    io:format("info_lib: ~p ~p ~p~n", [Name, is_integer(Num), binary:part(Text, 0, 9)]),
    Info = crypto:info(),
    io:format("info: ~p~n", [lists:sort(maps:keys(Info))]),
    Supported = crypto:supports(ciphers),
    Expected = [aes_128_cbc, aes_192_cbc, aes_256_cbc, aes_128_ctr, aes_192_ctr,
                aes_256_ctr, aes_128_ecb, aes_192_ecb, aes_256_ecb, aes_128_cfb8,
                aes_192_cfb8, aes_256_cfb8, aes_128_cfb128, aes_192_cfb128,
                aes_256_cfb128, aes_128_ofb, aes_192_ofb, aes_256_ofb, aes_128_gcm,
                aes_192_gcm, aes_256_gcm, aes_128_ccm, aes_192_ccm, aes_256_ccm,
                chacha20, chacha20_poly1305, des_ede3_cbc, des_ede3_cfb, aes_cbc,
                aes_ctr, aes_ecb, aes_gcm, aes_ccm, aes_cfb8, aes_cfb128],
    io:format("supported: ~p~n", [[C || C <- Expected, not lists:member(C, Supported)]]),
    [io:format("info ~p: ~p~n", [C, lists:sort(maps:to_list(crypto:cipher_info(C)))])
     || C <- Expected],
    io:format("info foo: ~p~n", [t(fun() -> crypto:cipher_info(foo) end)]),
    %% Every listed non-AEAD cipher round-trips.
    Plain = <<"Sixteen byte blk and then some more text: 48 bytes">>,
    Rt = [C || C <- Supported,
               not maps:get(prop_aead, crypto:cipher_info(C)),
               begin
                   #{key_length := KL, iv_length := IL} = crypto:cipher_info(C),
                   K = key(KL), IV = key(IL),
                   Enc = crypto:crypto_one_time(C, K, IV, Plain, [{encrypt, true}, {padding, pkcs_padding}]),
                   crypto:crypto_one_time(C, K, IV, Enc, [{encrypt, false}, {padding, pkcs_padding}]) =/= Plain
               end],
    io:format("round trip failures: ~p~n", [Rt]),
    Data = <<"The quick brown fox jumps over the lazy dog">>,
    Ciphers = [C || C <- Expected, not maps:get(prop_aead, crypto:cipher_info(C))],
    [begin
         #{key_length := KL, iv_length := IL, block_size := BS} = crypto:cipher_info(C),
         K = key(KL),
         IV = key(IL),
         Block = binary:part(Data, 0, (byte_size(Data) div BS) * BS),
         io:format("~p:~n", [C]),
         io:format("  plain true: ~p~n", [t(fun() -> crypto:crypto_one_time(C, K, IV, Block, true) end)]),
         io:format("  uneven true: ~p~n", [t(fun() -> crypto:crypto_one_time(C, K, IV, Data, true) end)]),
         [io:format("  ~p: ~p~n", [Pad, t(fun() -> crypto:crypto_one_time(C, K, IV, Data, [{encrypt, true}, {padding, Pad}]) end)])
          || Pad <- [none, zero, pkcs_padding, undefined]],
         R = crypto:crypto_one_time(C, K, IV, Data, [{padding, random}]),
         io:format("  random size: ~p~n", [byte_size(R)]),
         Enc = crypto:crypto_one_time(C, K, IV, Data, [{encrypt, true}, {padding, pkcs_padding}]),
         io:format("  decrypt: ~p~n", [t(fun() -> crypto:crypto_one_time(C, K, IV, Enc, [{encrypt, false}, {padding, pkcs_padding}]) end)]),
         io:format("  decrypt false: ~p~n", [t(fun() -> crypto:crypto_one_time(C, K, IV, Block, false) end)]),
         S = crypto:crypto_init(C, K, IV, [{encrypt, true}, {padding, pkcs_padding}]),
         io:format("  data0: ~p~n", [lists:sort(maps:to_list(crypto:crypto_get_data(S)))]),
         P1 = crypto:crypto_update(S, <<"The quick ">>),
         P2 = crypto:crypto_update(S, [<<"brown fox jumps ">>, "over the lazy dog"]),
         P3 = crypto:crypto_final(S),
         io:format("  streamed: ~p ~p~n", [[byte_size(P1), byte_size(P2), byte_size(P3)],
                                           iolist_to_binary([P1, P2, P3]) =:= Enc]),
         io:format("  data1: ~p~n", [lists:sort(maps:to_list(crypto:crypto_get_data(S)))]),
         D = crypto:crypto_init(C, K, IV, [{encrypt, false}, {padding, pkcs_padding}]),
         Dec = [crypto:crypto_update(D, binary:part(Enc, I, 1)) || I <- lists:seq(0, byte_size(Enc) - 1)],
         io:format("  decrypted bytewise: ~p~n", [iolist_to_binary([Dec, crypto:crypto_final(D)]) =:= Data])
     end || C <- Ciphers],
    K16 = key(16), IV16 = key(16),
    Errors = [
      fun() -> crypto:crypto_one_time(foo, K16, IV16, <<>>, true) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, 1, IV16, <<>>, true) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, key(15), IV16, <<>>, true) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, 1, <<>>, true) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, <<1>>, <<>>, true) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, IV16, 1, true) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, IV16, <<>>, 1) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, IV16, <<>>, [a]) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, IV16, <<>>, [{encrypt, 1}]) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, IV16, <<>>, [{encrypt, true}, {encrypt, true}]) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, IV16, <<>>, [{padding, none}, {padding, none}]) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, IV16, <<>>, [{padding, foo}]) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, IV16, <<>>, [{foo, 1}]) end,
      fun() -> crypto:crypto_one_time(aes_128_gcm, K16, IV16, <<>>, true) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, IV16, <<1:120>>, [{padding, none}]) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, IV16, <<1:120>>, [{encrypt, false}, {padding, pkcs_padding}]) end,
      fun() -> crypto:crypto_one_time(aes_128_cbc, K16, IV16, <<1:128>>, [{encrypt, false}, {padding, pkcs_padding}]) end,
      fun() -> crypto:crypto_one_time(chacha20, key(32), key(12), <<1:128>>, true) end,
      fun() -> crypto:crypto_init(foo, K16, IV16, true) end,
      fun() -> crypto:crypto_init(aes_128_cbc, K16, IV16, 1) end,
      fun() -> crypto:crypto_init(aes_128_cbc, K16, <<>>, true) end,
      fun() -> crypto:crypto_init(aes_128_cbc, K16, true) end,
      fun() -> crypto:crypto_update(make_ref(), <<>>) end,
      fun() -> crypto:crypto_update(crypto:crypto_init(aes_128_ctr, K16, IV16, true), 1) end,
      fun() -> crypto:crypto_final(make_ref()) end,
      fun() -> crypto:crypto_get_data(make_ref()) end
    ],
    [io:format("error: ~p~n", [t(F)]) || F <- Errors],
    ok.
