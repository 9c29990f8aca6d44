%% crypto's signatures on OpenSSL: RSA PKCS #1 v1.5 (deterministic, so
%% compared byte for byte) and PSS, ECDSA on P-256 and P-384, Ed25519 and
%% Ed448, over data and over {digest, Hash}; randomised signatures are
%% checked by verifying them and a fixed one that erl 25 made; a tampered
%% message or signature verifies as false; RSA key generation.
-module(crypto_sign).
-export([main/0]).

hex(Bin) -> binary:encode_hex(Bin).

rsa_key() -> [<<16#010001:24>>, <<16#E27C9FC1F4805C772FC96DC6C92653CAE0FC6CD5AB769ADC9A0472863F31009957DB6BA5F4C5E8B7E344BFB0D764388AB272C7BEB5F5FAA5B598114EE5938D59F992D130B195D5EA1CD38385C29C2D64A1326C1D87A33C90354CE2AA930653057CD262100543A1168ACDB9178AD9452C07B1EB0420CCC7B7AA23C852A8642DDD:1024>>, <<16#5EBC4C42DFD7D555916A8AFD8C63F8C6B2E7434AF8E6AA8E3DEA4051411B6929BB232FDB0210CA7028A3381F6B69237178852461F450C8A009DE6AD6FA968697E35C0E29C50807E88974E7CDD90B7AB29E0FB177C9E73115D2E96C643C018F1294E338A9099E116D57E0C4782AAB1470621D96A78C655D1C53E5E2111A4538A1:1024>>, <<16#FE4FF35118355DE0735E017373D17457E1FD4E341E964719A3A808D9F2EB7921FDF559CCB28B6E12B24AACB4A806112E68F3424A32F03C8F4316338F489A2C55:512>>, <<16#E3FD66AADA4AA2BF52B08B64CE836A5A2A9BB4C5DD3206244E0ED50968F189491C0FFF57983EA34A22829D958009E39E3AE7DA9CABB51A0F7CAB8698BB170369:512>>, <<16#AB2197E57939E83B32C70E88E7660A395D4CBC845C14DA3189AC7890596455762754242297FF358A054A34DFB8B5A4782B8D8E8D29ABF9C499EB65B4C4B162A5:512>>, <<16#D607895E535745B97E93260918A5DE2D8F5A65366B150F16FE00869632E2AD12E9394B689C101193031AC37D199A2F08D81BD8EAC3775C63B59200E5589D9E21:512>>, <<16#810C0EE51AA38CF1126512FA6E8E62EC4997C36FA77C93005078B0F59B5EF5BA9824CB1660F6C9F5B981A4423905275FFA005C8ABC48749EEAD9F97082CA94ED:512>>].
ec_key() -> {<<16#04EAF7D39DE5710C77B0C10D2887A2D90E5E50B06F5ABDBA2B3FE18AA51DE7D84B5892F670B0A32605F85C2DC74A2856F5EB9F007632A84554141CB381F2ABEB45:520>>, <<16#4CA3FB574D507FEE822C2D098BCE212BDF59EE689BFBC0C6295F2F29EF2AEBEA:256>>}.
ec384_key() -> {<<16#04CFC6EC07311EC995206038B7A9C879FC9527AE3B95E727ABDD2E29CA16F9C291AC5D23BBAD2053A87DA2CBED7CDF952E2B0CF922801530291FC7B6306B413A74E255FAAF6EE3856C946465844DD7A0C1D7DC89AA7E733CD09414AF9C2E3025AC:776>>, <<16#F1D903709BB5D89FF217F68E092CBD785E07D0AF68CD63F3E95961DC51191C80238D711B6DA28AA5D51F6B8FD338FA04:384>>}.
erl_pss() -> <<16#D387E421D6E36923289F2E8028ED4D724537F39858256C40EFA8A9948CFE470999A4C1B667DB6541A0466695FC962B0AE59DE7A66C286B50D5F7748D7851963EBAE580CF1967BB6A4E48FD5F991FF0E1A364557DFAE80B619A78269175EB460279F0E15A1724F863550562D051BFC3AB26B98837C350AD3DE4A17468533D0156:1024>>.
erl_ecdsa() -> <<16#3046022100D4FE19119B9C9B93C52F760EF15E8974BE867E3B00E8CE08987749B340A2984B022100C6E7EA1E8A04F31277521C4A55EC0DC511D952ED4AD1567C6B6878B3F6F29CC9:576>>.
erl_ecdsa384() -> <<16#3065023045B088720167D14826BF28317D983BEDD18218D96BA2B30F9696B1842C873E16239B1472E257A8D6D1D20C63EBC91044023100990D269BFF71B1708FD144D6FCFE873923EDD39C39E25BE8841662BBDBB7ED828BEF055E5F412A3DA82B09924CD2B655:824>>.

main() ->
    io:format("public_keys: ~p~n", [[K || K <- [rsa, ecdsa, eddsa], not lists:member(K, crypto:supports(public_keys))]]),
    io:format("rsa_opts: ~p~n", [[K || K <- [rsa_pkcs1_pss_padding, rsa_pss_saltlen, rsa_mgf1_md, rsa_pkcs1_padding], not lists:member(K, crypto:supports(rsa_opts))]]),
    M = <<"The quick brown fox">>,
    RK = rsa_key(),
    RP = lists:sublist(RK, 2),
    [begin
         S = crypto:sign(rsa, D, M, RK),
         io:format("rsa pkcs1 ~p: ~s~n", [D, hex(S)]),
         io:format("  verify: ~p ~p ~p~n", [crypto:verify(rsa, D, M, S, RP),
                                            crypto:verify(rsa, D, <<M/binary, "!">>, S, RP),
                                            crypto:verify(rsa, D, {digest, crypto:hash(D, M)}, S, RP)]),
         io:format("  digest: ~p~n", [crypto:sign(rsa, D, {digest, crypto:hash(D, M)}, RK) =:= S]),
         Pss = [{rsa_padding, rsa_pkcs1_pss_padding}],
         P = crypto:sign(rsa, D, M, RK, Pss),
         io:format("  pss: ~p ~p ~p~n", [byte_size(P), crypto:verify(rsa, D, M, P, RP, Pss),
                                         crypto:verify(rsa, D, M, P, RP, [])]),
         Salt = Pss ++ [{rsa_pss_saltlen, 20}, {rsa_mgf1_md, sha}],
         P2 = crypto:sign(rsa, D, M, RK, Salt),
         io:format("  pss salt 20: ~p ~p~n", [crypto:verify(rsa, D, M, P2, RP, Salt),
                                              crypto:verify(rsa, D, <<"x">>, P2, RP, Salt)])
     end || D <- [sha, sha256, sha384, sha512]],
    io:format("erl's pss: ~p~n", [crypto:verify(rsa, sha256, M, erl_pss(), RP, [{rsa_padding, rsa_pkcs1_pss_padding}, {rsa_pss_saltlen, 32}])]),
    [begin
         {Pub, Priv} = Key(),
         S = crypto:sign(ecdsa, D, M, [Priv, C]),
         io:format("ecdsa ~p: ~p ~p ~p~n", [C, crypto:verify(ecdsa, D, M, S, [Pub, C]),
                                            crypto:verify(ecdsa, D, <<"x">>, S, [Pub, C]),
                                            crypto:verify(ecdsa, D, M, Erl, [Pub, C])]),
         io:format("  digest: ~p~n", [crypto:verify(ecdsa, D, {digest, crypto:hash(D, M)}, S, [Pub, C])]),
         io:format("  garbage sig: ~p~n", [crypto:verify(ecdsa, D, M, <<1, 2, 3>>, [Pub, C])])
     end || {C, D, Key, Erl} <- [{secp256r1, sha256, fun ec_key/0, erl_ecdsa()},
                                 {secp384r1, sha384, fun ec384_key/0, erl_ecdsa384()}]],
    [begin
         {Pub, Priv} = crypto:generate_key(eddsa, C, list_to_binary(lists:seq(1, N))),
         S = crypto:sign(eddsa, none, M, [Priv, C]),
         io:format("~p: ~s~n", [C, hex(S)]),
         io:format("  verify: ~p ~p~n", [crypto:verify(eddsa, none, M, S, [Pub, C]),
                                         crypto:verify(eddsa, none, <<"x">>, S, [Pub, C])])
     end || {C, N} <- [{ed25519, 32}, {ed448, 57}]],
    {GP, GK} = crypto:generate_key(rsa, {1024, 65537}),
    io:format("rsa keygen: ~p ~p ~p~n", [length(GK), hd(GP), byte_size(lists:nth(2, GP))]),
    GS = crypto:sign(rsa, sha256, M, GK),
    io:format("  verify: ~p~n", [crypto:verify(rsa, sha256, M, GS, GP)]),
    ok.
