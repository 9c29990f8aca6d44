%% crypto's AEAD with a state made once (crypto_one_time_aead_init/4 and
%% crypto_one_time_aead/4, OTP 28 on), which OTP 29's TLS records use:
%% AES-GCM, AES-CCM and ChaCha20-Poly1305 sealed and opened, the same
%% bytes as the one-shot crypto_one_time_aead/6,7, a tampered text or tag,
%% and the errors of bad arguments. Releases without the functions say so.
-module(crypto_aead_state).
-export([main/0]).

hex(B) when is_binary(B) -> binary:encode_hex(B);
hex(T) -> T.

show(Label, F) ->
    R = try hex(F()) catch C:E -> {C, E} end,
    io:format("~s: ~p~n", [Label, R]).

main() ->
    {module, crypto} = code:ensure_loaded(crypto),
    case erlang:function_exported(crypto, crypto_one_time_aead_init, 4) of
        false -> io:format("no crypto_one_time_aead_init/4~n");
        true -> run()
    end.

run() ->
    Text = <<"a TLS record's plain text, some bytes long">>,
    AAD = <<23, 3, 3, 0, 58>>,
    [begin
         Key = binary:copy(<<7>>, KeyLen),
         IV = binary:part(binary:copy(<<16#5a, 16#c3>>, 8), 0, IVLen),
         Enc = crypto:crypto_one_time_aead_init(C, Key, TagLen, true),
         Dec = crypto:crypto_one_time_aead_init(C, Key, TagLen, false),
         Sealed = crypto:crypto_one_time_aead(Enc, IV, Text, AAD),
         {Ct, Tag} = crypto:crypto_one_time_aead(C, Key, IV, Text, AAD, TagLen, true),
         io:format("~p: ~s~n  same as one-shot: ~p~n", [C, hex(Sealed), Sealed =:= <<Ct/binary, Tag/binary>>]),
         io:format("  opened: ~p~n", [crypto:crypto_one_time_aead(Dec, IV, Sealed, AAD) =:= Text]),
         io:format("  again: ~p~n", [crypto:crypto_one_time_aead(Dec, IV, [Sealed], [AAD]) =:= Text]),
         <<B, Rest/binary>> = Sealed,
         io:format("  tampered: ~p~n", [crypto:crypto_one_time_aead(Dec, IV, <<(B bxor 1), Rest/binary>>, AAD)]),
         io:format("  other aad: ~p~n", [crypto:crypto_one_time_aead(Dec, IV, Sealed, <<"x">>)])
     end || {C, KeyLen, IVLen, TagLen} <- [{aes_128_gcm, 16, 12, 16}, {aes_256_gcm, 32, 12, 16},
                                          {aes_256_gcm, 32, 12, 12}, {chacha20_poly1305, 32, 12, 16},
                                          {aes_128_ccm, 16, 12, 16}, {aes_128_ccm, 16, 12, 8}]],
    Key = binary:copy(<<1>>, 16),
    show("bad flag", fun() -> crypto:crypto_one_time_aead_init(aes_128_gcm, Key, 16, perhaps) end),
    show("bad key size", fun() -> crypto:crypto_one_time_aead_init(aes_128_gcm, <<1,2>>, 16, true) end),
    show("not aead", fun() -> crypto:crypto_one_time_aead_init(aes_128_ctr, Key, 16, true) end),
    show("unknown", fun() -> crypto:crypto_one_time_aead_init(nope, Key, 16, true) end),
    show("bad tag length", fun() -> crypto:crypto_one_time_aead_init(aes_128_gcm, Key, -1, true) end),
    show("bad state", fun() -> crypto:crypto_one_time_aead(make_ref(), <<0:96>>, <<>>, <<>>) end),
    E = crypto:crypto_one_time_aead_init(aes_128_gcm, Key, 16, true),
    D = crypto:crypto_one_time_aead_init(aes_128_gcm, Key, 16, false),
    show("bad iv", fun() -> crypto:crypto_one_time_aead(E, foo, <<>>, <<>>) end),
    show("bad text", fun() -> crypto:crypto_one_time_aead(E, <<0:96>>, foo, <<>>) end),
    show("bad aad", fun() -> crypto:crypto_one_time_aead(E, <<0:96>>, <<>>, foo) end),
    show("short text", fun() -> crypto:crypto_one_time_aead(D, <<0:96>>, <<1,2,3>>, <<>>) end),
    show("empty", fun() -> crypto:crypto_one_time_aead(E, <<0:96>>, <<>>, <<>>) end),
    ok.
