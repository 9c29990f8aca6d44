%% Certificates made at test time with public_key:pkix_test_data/1 (RSA
%% and ECDSA chains, root, intermediate and peer), checked with
%% pkix_verify/2, pkix_is_issuer/2, pkix_path_validation/3 (a good chain,
%% a chain under the wrong root, a chain with a link missing, a tampered
%% certificate), and the CRL distribution and issuer helpers; keys and
%% serials are random, so only what does not depend on them is printed.
-module(pkix_verify).
-export([main/0]).

-include_lib("public_key/include/public_key.hrl").

chain(Key) ->
    Opts = [{key, Key}, {digest, sha256}],
    #{server_config := SC, client_config := CC} =
        public_key:pkix_test_data(#{server_chain => #{root => Opts, intermediates => [Opts], peer => Opts},
                                    client_chain => #{root => Opts, intermediates => [], peer => Opts}}),
    {SC, CC}.

result({ok, {{_, _, _}, _Tree}}) -> ok;
result({ok, Other}) -> {ok, shape(Other)};
result({error, {bad_cert, Reason}}) -> {bad_cert, shape(Reason)};
result(Other) -> shape(Other).

shape(T) when is_tuple(T) -> list_to_tuple([shape(E) || E <- tuple_to_list(T)]);
shape(T) when is_list(T) -> [shape(E) || E <- T];
shape(T) when is_binary(T) -> binary;
shape(T) -> T.

run(Name, Key) ->
    {SC, CC} = chain(Key),
    Peer = proplists:get_value(cert, SC),
    CAs = proplists:get_value(cacerts, SC),
    [Inter] = [C || C <- CAs, not public_key:pkix_is_self_signed(C)],
    [Root] = [C || C <- CAs, public_key:pkix_is_issuer(Inter, C)],
    io:format("  server cacerts: ~p~n", [length(CAs)]),
    OtpRoot = public_key:pkix_decode_cert(Root, otp),
    RootKey = ((OtpRoot#'OTPCertificate'.tbsCertificate)#'OTPTBSCertificate'.subjectPublicKeyInfo)#'OTPSubjectPublicKeyInfo'.subjectPublicKey,
    OtpInter = public_key:pkix_decode_cert(Inter, otp),
    InterKey = ((OtpInter#'OTPCertificate'.tbsCertificate)#'OTPTBSCertificate'.subjectPublicKeyInfo)#'OTPSubjectPublicKeyInfo'.subjectPublicKey,
    RootKey2 = case RootKey of
                   #'ECPoint'{} -> {RootKey, ((OtpRoot#'OTPCertificate'.tbsCertificate)#'OTPTBSCertificate'.subjectPublicKeyInfo)#'OTPSubjectPublicKeyInfo'.algorithm#'PublicKeyAlgorithm'.parameters};
                   _ -> RootKey
               end,
    InterKey2 = case InterKey of
                   #'ECPoint'{} -> {InterKey, ((OtpInter#'OTPCertificate'.tbsCertificate)#'OTPTBSCertificate'.subjectPublicKeyInfo)#'OTPSubjectPublicKeyInfo'.algorithm#'PublicKeyAlgorithm'.parameters};
                   _ -> InterKey
               end,
    io:format("~s key: ~p~n", [Name, element(1, RootKey)]),
    io:format("  verify inter by root: ~p~n", [public_key:pkix_verify(Inter, RootKey2)]),
    io:format("  verify peer by inter: ~p~n", [public_key:pkix_verify(Peer, InterKey2)]),
    io:format("  verify peer by root: ~p~n", [public_key:pkix_verify(Peer, RootKey2)]),
    io:format("  root self-signed: ~p ~p~n", [public_key:pkix_is_self_signed(Root), public_key:pkix_is_self_signed(Peer)]),
    io:format("  issuer: ~p ~p~n", [public_key:pkix_is_issuer(Peer, Inter), public_key:pkix_is_issuer(Peer, Root)]),
    io:format("  path: ~p~n", [result(public_key:pkix_path_validation(Root, [Inter, Peer], []))]),
    io:format("  path by otp root: ~p~n", [result(public_key:pkix_path_validation(OtpRoot, [Inter, Peer], []))]),
    [OtherRoot | _] = [C || C <- proplists:get_value(cacerts, CC), C =/= Root, C =/= Inter],
    io:format("  wrong root: ~p~n", [result(public_key:pkix_path_validation(OtherRoot, [Inter, Peer], []))]),
    io:format("  link missing: ~p~n", [result(public_key:pkix_path_validation(Root, [Peer], []))]),
    Size = byte_size(Peer),
    <<Head:(Size - 10)/binary, B, Tail/binary>> = Peer,
    Tampered = <<Head/binary, (B bxor 1), Tail/binary>>,
    io:format("  tampered: ~p~n", [result(try public_key:pkix_path_validation(Root, [Inter, Tampered], []) catch C:E -> {C, shape(E)} end)]),
    io:format("  tampered verify: ~p~n", [catch public_key:pkix_verify(Tampered, InterKey2)]),
    Fun = {fun(_, {bad_cert, _} = R, S) -> {valid, [R | S]};
              (_, {extension, _}, S) -> {unknown, S};
              (_, valid, S) -> {valid, S};
              (_, valid_peer, S) -> {valid, [peer | S]} end, []},
    io:format("  verify_fun: ~p~n", [result(public_key:pkix_path_validation(OtherRoot, [Inter, Peer], [{verify_fun, Fun}]))]),
    io:format("  issuer id: ~p ~p~n", [shape(public_key:pkix_issuer_id(Peer, other)), issuer_id(public_key:pkix_issuer_id(Root, self))]),
    io:format("  crl dp: ~p~n", [public_key:pkix_dist_points(Peer)]),
    ok.

%% The serial number is left out: it may be random.
issuer_id({ok, {Serial, Name}}) when is_integer(Serial) -> {ok, serial, Name};
issuer_id(Other) -> Other.

main() ->
    run("rsa", {rsa, 2048, 65537}),
    run("ecdsa", {namedCurve, secp256r1}),
    run("ecdsa384", {namedCurve, secp384r1}),
    ok.
