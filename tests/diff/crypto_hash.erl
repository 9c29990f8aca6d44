%% crypto's hashing, HMAC and randomness: every digest OTP 25 offers, on
%% fixed data in one call and in pieces, HMAC with short and long keys,
%% hash_info, random bytes and ranges (sizes and bounds only), and the
%% errors crypto raises for a bad algorithm or argument.
-module(crypto_hash).
-export([main/0]).
-compile({nowarn_deprecated_function, [{crypto, rand_uniform, 2}]}).

hex(Bin) -> binary:encode_hex(Bin).

main() ->
    Algs = crypto:supports(hashs),
    io:format("hashs: ~p~n", [Algs]),
    Data = <<"The quick brown fox jumps over the lazy dog">>,
    Long = binary:copy(<<"0123456789abcdef">>, 1000),
    [begin
         io:format("~p: ~s~n", [A, hex(crypto:hash(A, Data))]),
         io:format("  empty: ~s~n", [hex(crypto:hash(A, <<>>))]),
         io:format("  iolist: ~p~n", [crypto:hash(A, ["The quick ", <<"brown fox">>, [" jumps over the lazy dog"]])
                                      =:= crypto:hash(A, Data)]),
         S0 = crypto:hash_init(A),
         S1 = crypto:hash_update(S0, <<"The quick brown fox ">>),
         S2 = crypto:hash_update(S1, "jumps over the lazy dog"),
         io:format("  streamed: ~p~n", [crypto:hash_final(S2) =:= crypto:hash(A, Data)]),
         io:format("  old state reusable: ~p~n", [crypto:hash_final(S1) =:= crypto:hash(A, <<"The quick brown fox ">>)]),
         io:format("  long: ~s~n", [hex(crypto:hash(A, Long))]),
         io:format("  info: ~p~n", [crypto:hash_info(A)]),
         io:format("  hmac: ~s~n", [hex(crypto:mac(hmac, A, <<"key">>, Data))]),
         io:format("  hmac long key: ~s~n", [hex(crypto:mac(hmac, A, Long, Data))]),
         io:format("  hmac iolist key: ~s~n", [hex(crypto:mac(hmac, A, ["k", <<"e">>, "y"], [Data]))]),
         M0 = crypto:mac_init(hmac, A, <<"key">>),
         M1 = crypto:mac_update(M0, <<"The quick brown fox ">>),
         M2 = crypto:mac_update(M1, <<"jumps over the lazy dog">>),
         io:format("  hmac streamed: ~p~n", [crypto:mac_final(M2) =:= crypto:mac(hmac, A, <<"key">>, Data)]),
         io:format("  macN: ~s~n", [hex(crypto:macN(hmac, A, <<"key">>, Data, 8))])
     end || A <- Algs],
    io:format("hmac sha256 rfc4231: ~s~n",
              [hex(crypto:mac(hmac, sha256, binary:copy(<<16#0b>>, 20), <<"Hi There">>))]),
    io:format("strong_rand_bytes: ~p~n", [[byte_size(crypto:strong_rand_bytes(N)) || N <- [0, 1, 16, 1000]]]),
    io:format("distinct: ~p~n", [crypto:strong_rand_bytes(16) =/= crypto:strong_rand_bytes(16)]),
    R = [crypto:rand_uniform(5, 10) || _ <- lists:seq(1, 200)],
    io:format("rand_uniform in [5, 10): ~p ~p~n", [lists:min(R) >= 5, lists:max(R) < 10]),
    Big = [crypto:rand_uniform(1 bsl 70, 1 bsl 71) || _ <- lists:seq(1, 50)],
    io:format("rand_uniform big: ~p~n", [lists:all(fun(X) -> X >= 1 bsl 70 andalso X < 1 bsl 71 end, Big)]),
    Neg = [crypto:rand_uniform(-3, 3) || _ <- lists:seq(1, 100)],
    io:format("rand_uniform negative: ~p ~p~n", [lists:min(Neg) >= -3, lists:max(Neg) < 3]),
    io:format("hash_equals: ~p ~p~n", [crypto:hash_equals(<<"abc">>, <<"abc">>),
                                       crypto:hash_equals(<<"abc">>, <<"abd">>)]),
    io:format("exor: ~p ~p~n", [crypto:exor(<<1, 2, 3>>, <<255, 0, 3>>), crypto:exor("ab", [<<"c">>, "d"])]),
    [bad(F) || F <- [fun() -> crypto:hash(foo, <<"x">>) end,
                     fun() -> crypto:hash(sha256, foo) end,
                     fun() -> crypto:hash(sha256, [1, 2 | 3]) end,
                     fun() -> crypto:hash_init(foo) end,
                     fun() -> crypto:mac(hmac, foo, <<"k">>, <<"d">>) end,
                     fun() -> crypto:mac(hmac, sha256, foo, <<"d">>) end,
                     fun() -> crypto:strong_rand_bytes(-1) end,
                     fun() -> crypto:strong_rand_bytes(a) end,
                     fun() -> crypto:hash_equals(<<"a">>, <<"ab">>) end,
                     fun() -> crypto:exor(<<1>>, <<1, 2>>) end]],
    ok.

bad(F) ->
    try F() of
        V -> io:format("no error: ~p~n", [V])
    catch
        C:R:St -> io:format("~p:~p ~p~n", [C, R, [{M, Fn, A} || {M, Fn, A, _} <- St, M =:= crypto]])
    end.
