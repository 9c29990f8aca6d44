%% crypto's RSA encryption, PBKDF2 and the small helpers: public_encrypt /
%% private_decrypt with PKCS #1 v1.5 and OAEP (digest, label), private_encrypt
%% / public_decrypt, no padding, the errors for data too long or a wrong
%% padding; pbkdf2_hmac vectors and errors; exor, hash_equals and
%% strong_rand_bytes sizes.
-module(crypto_rsa_kdf).
-export([main/0]).

hex(Bin) -> crypto_result:hex(Bin).

t(F) -> crypto_result:t(F).

rsa_key() -> [<<16#010001:24>>, <<16#E27C9FC1F4805C772FC96DC6C92653CAE0FC6CD5AB769ADC9A0472863F31009957DB6BA5F4C5E8B7E344BFB0D764388AB272C7BEB5F5FAA5B598114EE5938D59F992D130B195D5EA1CD38385C29C2D64A1326C1D87A33C90354CE2AA930653057CD262100543A1168ACDB9178AD9452C07B1EB0420CCC7B7AA23C852A8642DDD:1024>>, <<16#5EBC4C42DFD7D555916A8AFD8C63F8C6B2E7434AF8E6AA8E3DEA4051411B6929BB232FDB0210CA7028A3381F6B69237178852461F450C8A009DE6AD6FA968697E35C0E29C50807E88974E7CDD90B7AB29E0FB177C9E73115D2E96C643C018F1294E338A9099E116D57E0C4782AAB1470621D96A78C655D1C53E5E2111A4538A1:1024>>, <<16#FE4FF35118355DE0735E017373D17457E1FD4E341E964719A3A808D9F2EB7921FDF559CCB28B6E12B24AACB4A806112E68F3424A32F03C8F4316338F489A2C55:512>>, <<16#E3FD66AADA4AA2BF52B08B64CE836A5A2A9BB4C5DD3206244E0ED50968F189491C0FFF57983EA34A22829D958009E39E3AE7DA9CABB51A0F7CAB8698BB170369:512>>, <<16#AB2197E57939E83B32C70E88E7660A395D4CBC845C14DA3189AC7890596455762754242297FF358A054A34DFB8B5A4782B8D8E8D29ABF9C499EB65B4C4B162A5:512>>, <<16#D607895E535745B97E93260918A5DE2D8F5A65366B150F16FE00869632E2AD12E9394B689C101193031AC37D199A2F08D81BD8EAC3775C63B59200E5589D9E21:512>>, <<16#810C0EE51AA38CF1126512FA6E8E62EC4997C36FA77C93005078B0F59B5EF5BA9824CB1660F6C9F5B981A4423905275FFA005C8ABC48749EEAD9F97082CA94ED:512>>].

main() ->
    RK = rsa_key(),
    RP = lists:sublist(RK, 2),
    M = <<"attack at dawn">>,
    Oaep = [{rsa_padding, rsa_pkcs1_oaep_padding}],
    Cases = [rsa_pkcs1_padding, Oaep, Oaep ++ [{rsa_oaep_md, sha256}],
             Oaep ++ [{rsa_oaep_md, sha256}, {rsa_mgf1_md, sha256}, {rsa_oaep_label, <<"label">>}]],
    [begin
         C = crypto:public_encrypt(rsa, M, RP, Pad),
         io:format("~p: ~p ~p~n", [Pad, byte_size(C), crypto:private_decrypt(rsa, C, RK, Pad)])
     end || Pad <- Cases],
    S = crypto:private_encrypt(rsa, M, RK, rsa_pkcs1_padding),
    io:format("private_encrypt: ~s~n", [hex(S)]),
    io:format("public_decrypt: ~p~n", [crypto:public_decrypt(rsa, S, RP, rsa_pkcs1_padding)]),
    Full = binary:copy(<<"x">>, 128),
    N = crypto:public_encrypt(rsa, Full, RP, rsa_no_padding),
    io:format("no padding: ~s ~p~n", [hex(N), crypto:private_decrypt(rsa, N, RK, rsa_no_padding) =:= Full]),
    C1 = crypto:public_encrypt(rsa, M, RP, rsa_pkcs1_padding),
    Errors = [
      fun() -> crypto:private_decrypt(rsa, C1, RK, Oaep) end,
      fun() -> crypto:public_encrypt(rsa, binary:copy(<<1>>, 200), RP, rsa_pkcs1_padding) end,
      fun() -> crypto:public_encrypt(rsa, <<"x">>, RP, rsa_no_padding) end,
      fun() -> crypto:public_decrypt(rsa, <<1, 2, 3>>, RP, rsa_pkcs1_padding) end,
      fun() -> crypto:pbkdf2_hmac(sha256, <<"pw">>, <<"salt">>, 0, 32) end,
      fun() -> crypto:pbkdf2_hmac(foo, <<"pw">>, <<"salt">>, 1, 32) end,
      fun() -> crypto:pbkdf2_hmac(sha256, <<"pw">>, <<"salt">>, 1, 0) end,
      fun() -> crypto:pbkdf2_hmac(sha256, 1, <<"salt">>, 1, 10) end
    ],
    [io:format("error: ~p~n", [t(F)]) || F <- Errors],
    [io:format("pbkdf2 ~p ~p ~p: ~s~n", [D, I, L, hex(crypto:pbkdf2_hmac(D, <<"password">>, <<"salt">>, I, L))])
     || D <- [sha, sha256, sha512], I <- [1, 2, 4096], L <- [20, 32, 64]],
    io:format("exor: ~p~n", [t(fun() -> crypto:exor(<<1, 2, 3>>, [4, <<5, 6>>]) end)]),
    io:format("exor sizes: ~p~n", [t(fun() -> crypto:exor(<<1, 2, 3>>, <<1>>) end)]),
    io:format("hash_equals: ~p ~p~n", [crypto:hash_equals(<<"abc">>, <<"abc">>), crypto:hash_equals(<<"abc">>, <<"abd">>)]),
    io:format("hash_equals sizes: ~p~n", [t(fun() -> crypto:hash_equals(<<"abc">>, <<"ab">>) end)]),
    io:format("strong_rand_bytes: ~p~n", [[byte_size(crypto:strong_rand_bytes(K)) || K <- [0, 1, 16, 1000]]]),
    ok.
