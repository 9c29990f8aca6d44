%% asn1rt_nif, the NIF under OTP's asn1 runtime: BER decoding and encoding
%% through public_key (a certificate and key made at test time with
%% public_key:pkix_test_data/1, through pem_encode, pem_decode,
%% pem_entry_decode, der_decode and der_encode), the NIF called directly
%% on long tags, long and indefinite lengths, and bad input (truncated
%% bytes, lengths past the end, over-long tags, garbage trees), and PER
%% packing.
-module(asn1_ber).
-export([main/0]).

show(Label, F) ->
    R = try F() catch C:E -> {C, clean(E)} end,
    io:format("~s: ~w~n", [Label, R]).

%% An asn1 decoding error without its stack trace, which names lines
%% that differ between releases.
clean({badmatch, {error, {asn1, {Reason, Stack}}}}) when is_list(Stack) -> {badmatch, Reason};
clean(E) -> E.

main() ->
    %% The NIF itself.
    [show(io_lib:format("decode ~w", [B]), fun() -> asn1rt_nif:decode_ber_tlv(B) end)
     || B <- [<<2,1,5>>, <<48,6,2,1,5,4,1,255,170>>, <<160,0>>, <<31,129,1,0>>,
              <<48,128,2,1,1,0,0,9>>, <<4,129,3,1,2,3>>,
              <<>>, <<2>>, <<2,5,1>>, <<2,133,1>>, <<2,133,1,0,0,0,0,0>>,
              <<31,129,129,0>>, <<2,128,0,0>>, <<48,128,2,0>>, <<48,2,2,5,1,2,3,4,5,6>>,
              <<31,5>>, [2,1|<<5>>]]],
    show("decode atom", fun() -> asn1rt_nif:decode_ber_tlv(foo) end),
    [show(io_lib:format("encode ~w", [T]), fun() -> asn1rt_nif:encode_ber_tlv(T) end)
     || T <- [{2,<<5>>}, {16,[{2,<<5>>},{4,<<>>}]}, {16,[]}, {131072 + 129, <<1>>},
              {65536 + 40000, [{2, <<7>>}]}, {4, binary:copy(<<9>>, 200)},
              {2, 5}, {-1, <<>>}, foo, {16, [{2,<<5>>}|x]}, {16, [bar]}]],
    Big = asn1rt_nif:encode_ber_tlv({4, binary:copy(<<1>>, 70000)}),
    io:format("big: ~w ~p~n", [binary:part(Big, 0, 5), byte_size(Big)]),
    [show(io_lib:format("per ~w", [C]), fun() -> asn1rt_nif:encode_per_complete(C) end)
     || C <- [<<>>, [1], [2], [1,0,1,2,1], [10,3,5,10,6,16#3f], [1,20,2,16#ab,16#cd],
              [1,30,4,1,16#f0], [40,4,2,1,1], [1,45,12,2,16#ab,16#c0], [3], [40,2,2,1,7]]],
    %% public_key over the NIF.
    #{server_config := SC} = public_key:pkix_test_data(
                               #{server_chain => #{root => [{key, {rsa, 1024, 65537}}], intermediates => [],
                                                   peer => [{key, {rsa, 1024, 65537}}]},
                                 client_chain => #{root => [], intermediates => [], peer => []}}),
    Cert = proplists:get_value(cert, SC),
    {KeyType, KeyDer} = proplists:get_value(key, SC),
    io:format("key type: ~p~n", [KeyType]),
    Pem = public_key:pem_encode([{'Certificate', Cert, not_encrypted}, {KeyType, KeyDer, not_encrypted}]),
    [{'Certificate', Cert2, not_encrypted}, {KeyType, KeyDer2, not_encrypted}] = public_key:pem_decode(Pem),
    io:format("pem round trip: ~p ~p~n", [Cert2 =:= Cert, KeyDer2 =:= KeyDer]),
    Plain = public_key:pem_entry_decode({'Certificate', Cert, not_encrypted}),
    io:format("certificate: ~p~n", [element(1, Plain)]),
    Otp = public_key:pkix_decode_cert(Cert, otp),
    io:format("otp certificate: ~p~n", [element(1, Otp)]),
    Tbs = element(2, Otp),
    io:format("version: ~p~n", [element(2, Tbs)]),
    io:format("issuer = subject: ~p~n", [public_key:pkix_is_self_signed(Cert)]),
    io:format("der re-encoded: ~p~n", [public_key:pkix_encode('Certificate', Plain, plain) =:= Cert]),
    Key = public_key:pem_entry_decode({KeyType, KeyDer, not_encrypted}),
    io:format("key: ~p ~p~n", [element(1, Key), public_key:der_encode(KeyType, Key) =:= KeyDer]),
    %% Bad DER through public_key.
    show("truncated cert", fun() -> public_key:pkix_decode_cert(binary:part(Cert, 0, 100), plain) end),
    show("garbage", fun() -> public_key:der_decode('Certificate', <<1,2,3>>) end),
    show("bad pem", fun() -> public_key:pem_entry_decode({'Certificate', <<48,3,2,1>>, not_encrypted}) end),
    ok.
