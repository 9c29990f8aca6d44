%% crypto's AEAD ciphers on OpenSSL (crypto_one_time_aead/6,7): AES-GCM,
%% AES-CCM and ChaCha20-Poly1305 with default and chosen tag lengths and
%% IV lengths, AAD as iodata, decryption with the right, a shortened and a
%% wrong tag, and the errors for a bad key, IV, tag or argument.
-module(crypto_aead).
-export([main/0]).

hex(Bin) -> crypto_result:hex(Bin).

t(F) -> crypto_result:t(F).

key(N) -> list_to_binary(lists:seq(1, N)).

main() ->
    P = <<"The quick brown fox jumps over the lazy dog">>,
    A = <<"associated">>,
    Ciphers = [aes_128_gcm, aes_192_gcm, aes_256_gcm, aes_128_ccm, aes_192_ccm,
               aes_256_ccm, chacha20_poly1305, aes_gcm, aes_ccm],
    [begin
         #{key_length := KL, iv_length := IL} = crypto:cipher_info(C),
         K = key(KL), IV = key(IL),
         io:format("~p:~n", [C]),
         {Ct, Tag} = crypto:crypto_one_time_aead(C, K, IV, P, A, true),
         io:format("  default: ~s ~s~n", [hex(Ct), hex(Tag)]),
         io:format("  decrypt: ~p~n", [t(fun() -> crypto:crypto_one_time_aead(C, K, IV, Ct, A, Tag, false) end)]),
         Bad = crypto:exor(Tag, binary:copy(<<1>>, byte_size(Tag))),
         io:format("  wrong tag: ~p~n", [t(fun() -> crypto:crypto_one_time_aead(C, K, IV, Ct, A, Bad, false) end)]),
         io:format("  wrong aad: ~p~n", [t(fun() -> crypto:crypto_one_time_aead(C, K, IV, Ct, <<"x">>, Tag, false) end)]),
         io:format("  short tag: ~p~n", [t(fun() -> crypto:crypto_one_time_aead(C, K, IV, Ct, A, binary:part(Tag, 0, 8), false) end)]),
         io:format("  empty tag: ~p~n", [t(fun() -> crypto:crypto_one_time_aead(C, K, IV, Ct, A, <<>>, false) end)]),
         [io:format("  tag ~p: ~p~n", [N, t(fun() -> crypto:crypto_one_time_aead(C, K, IV, P, A, N, true) end)])
          || N <- [0, 3, 4, 5, 8, 12, 14, 16, 17]],
         [io:format("  iv ~p: ~p~n", [N, t(fun() -> crypto:crypto_one_time_aead(C, K, key(N), P, A, true) end)])
          || N <- [0, 6, 7, 8, 12, 13, 14, 16]],
         io:format("  empty: ~p~n", [t(fun() -> crypto:crypto_one_time_aead(C, K, IV, <<>>, <<>>, true) end)]),
         io:format("  iodata: ~p~n", [t(fun() -> crypto:crypto_one_time_aead(C, K, IV, [<<"The quick ">>, "brown fox jumps over the lazy dog"], [<<"assoc">>, "iated"], true) end)]),
         %% (erl 25 and 27 take a short ChaCha20-Poly1305 key and read
         %% past it.)
         [io:format("  bad key: ~p~n", [t(fun() -> crypto:crypto_one_time_aead(C, key(KL - 1), IV, P, A, true) end)])
          || C =/= chacha20_poly1305]
     end || C <- Ciphers],
    K = key(16), IV = key(12),
    Errors = [
      fun() -> crypto:crypto_one_time_aead(foo, K, IV, P, A, true) end,
      fun() -> crypto:crypto_one_time_aead(aes_128_cbc, K, IV, P, A, true) end,
      fun() -> crypto:crypto_one_time_aead(aes_128_gcm, K, IV, P, A, foo, true) end,
      fun() -> crypto:crypto_one_time_aead(aes_128_gcm, K, IV, P, A, -1, true) end,
      fun() -> crypto:crypto_one_time_aead(aes_128_gcm, K, IV, P, 1, true) end,
      fun() -> crypto:crypto_one_time_aead(aes_128_gcm, K, IV, 1, A, true) end,
      fun() -> crypto:crypto_one_time_aead(aes_128_gcm, K, 1, P, A, true) end,
      fun() -> crypto:crypto_one_time_aead(aes_128_gcm, 1, IV, P, A, true) end,
      fun() -> crypto:crypto_one_time_aead(aes_128_gcm, K, IV, P, A, 16, 1) end,
      fun() -> crypto:crypto_one_time_aead(aes_128_gcm, K, IV, P, A, 1, false) end
    ],
    [io:format("error: ~p~n", [t(F)]) || F <- Errors],
    ok.
