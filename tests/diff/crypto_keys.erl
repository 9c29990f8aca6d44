%% crypto's key generation and agreement on OpenSSL: ECDH on X25519, X448,
%% P-256, P-384, P-521, secp256k1 and brainpool curves, DH on a fixed
%% group, EdDSA key pairs; random pairs agree both ways, fixed private keys
%% give fixed public keys and secrets; the errors for an unknown curve and
%% bad keys; explicit curve parameters.
-module(crypto_keys).
-export([main/0]).

hex(Bin) -> crypto_result:hex(Bin).

t(F) -> crypto_result:t(F).

bytes(N, Seed) -> list_to_binary([(Seed + I) rem 256 || I <- lists:seq(1, N)]).

%% RFC 2409's second Oakley group.
prime() ->
    16#FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF.

main() ->
    io:format("public_keys: ~p~n", [[K || K <- [dh, ecdh, eddh], not lists:member(K, crypto:supports(public_keys))]]),
    Curves = [{x25519, 32}, {x448, 56}, {secp256r1, 32}, {prime256v1, 32}, {secp384r1, 48},
              {secp521r1, 66}, {secp256k1, 32}, {secp224r1, 28}, {brainpoolP256r1, 32},
              {brainpoolP384r1, 48}, {brainpoolP512r1, 64}],
    io:format("curves: ~p~n", [[C || {C, _} <- Curves, not lists:member(C, crypto:supports(curves))]]),
    [begin
         {PubA, PrivA} = crypto:generate_key(ecdh, C),
         {PubB, PrivB} = crypto:generate_key(ecdh, C),
         S1 = crypto:compute_key(ecdh, PubB, PrivA, C),
         S2 = crypto:compute_key(ecdh, PubA, PrivB, C),
         io:format("~p: sizes ~p agree ~p~n", [C, [byte_size(PubA), byte_size(PrivA), byte_size(S1)], S1 =:= S2]),
         Fixed = bytes(N - 1, 7),
         Fixed2 = bytes(N - 1, 40),
         Priv1 = case C of x25519 -> bytes(N, 7); x448 -> bytes(N, 7); _ -> Fixed end,
         Priv2 = case C of x25519 -> bytes(N, 40); x448 -> bytes(N, 40); _ -> Fixed2 end,
         {Pub1, P1} = crypto:generate_key(ecdh, C, Priv1),
         {Pub2, _} = crypto:generate_key(ecdh, C, Priv2),
         io:format("  fixed pub: ~s~n  fixed priv: ~s~n", [hex(Pub1), hex(P1)]),
         io:format("  fixed secret: ~s~n", [hex(crypto:compute_key(ecdh, Pub2, Priv1, C))]),
         io:format("  again: ~p~n", [crypto:compute_key(ecdh, Pub1, Priv2, C) =:= crypto:compute_key(ecdh, Pub2, Priv1, C)])
     end || {C, N} <- Curves],
    %% Explicit curve parameters (as public_key passes them) name their curve.
    [begin
         Params = crypto:ec_curve(C),
         {XPub, XPriv} = crypto:generate_key(ecdh, Params),
         XS = crypto:sign(ecdsa, sha256, <<"m">>, [XPriv, Params]),
         io:format("explicit ~p: ~p ~p ~p~n", [C, byte_size(XPub),
                                            crypto:compute_key(ecdh, XPub, XPriv, Params) =:= crypto:compute_key(ecdh, XPub, XPriv, C),
                                            crypto:verify(ecdsa, sha256, <<"m">>, XS, [XPub, C])])
     end || C <- [secp256r1, secp384r1, secp521r1]],
    P = prime(),
    {DA, DPa} = crypto:generate_key(dh, [P, 2]),
    {DB, DPb} = crypto:generate_key(dh, [P, 2]),
    io:format("dh agree: ~p~n", [crypto:compute_key(dh, DB, DPa, [P, 2]) =:= crypto:compute_key(dh, DA, DPb, [P, 2])]),
    %% (erl on OpenSSL 3 makes a new DH private key even when given one.)
    io:format("dh fixed secret: ~s~n", [hex(crypto:compute_key(dh, bytes(128, 9), bytes(40, 3), [P, 2]))]),
    io:format("dh small: ~s~n", [hex(crypto:compute_key(dh, <<5>>, <<7>>, [P, 2]))]),
    [begin
         {EP, EK} = crypto:generate_key(eddsa, E),
         {EP2, EK2} = crypto:generate_key(eddsa, E, bytes(N, 5)),
         io:format("~p: sizes ~p fixed ~s ~s~n", [E, [byte_size(EP), byte_size(EK)], hex(EP2), hex(EK2)])
     end || {E, N} <- [{ed25519, 32}, {ed448, 57}]],
    {_, XPriv} = crypto:generate_key(ecdh, x25519),
    {_, EPriv} = crypto:generate_key(ecdh, secp256r1),
    Errors = [
      fun() -> crypto:generate_key(ecdh, foo) end,
      fun() -> crypto:generate_key(ecdh, x25519, <<1, 2, 3>>) end,
      fun() -> crypto:compute_key(ecdh, <<1, 2, 3>>, XPriv, x25519) end,
      fun() -> crypto:compute_key(ecdh, <<1, 2, 3>>, EPriv, secp256r1) end,
      fun() -> crypto:compute_key(ecdh, <<4, 1:512>>, EPriv, secp256r1) end,
      fun() -> crypto:compute_key(ecdh, <<4>>, EPriv, secp256r1) end,
      fun() -> crypto:compute_key(dh, <<1>>, <<7>>, [P, 2]) end,
      fun() -> crypto:compute_key(dh, binary:encode_unsigned(P - 1), <<7>>, [P, 2]) end
    ],
    [io:format("error: ~p~n", [t(F)]) || F <- Errors],
    ok.
