%% diff-requires-otp: 29
-module(native_record_hash).
%% erlang:phash2/1,2 of native records, and records as map keys. Field
%% names are atoms this module creates (in declaration order), so both
%% runtimes store the values in the same order.
-export([main/0]).
-export_record([h2]).

-record #h1{nr_hash_x = 0, nr_hash_y = 0}.
-record #h2{nr_hash_q, nr_hash_p = 1}.
-record #h0{}.

main() ->
    Rs = [#h1{}, #h1{nr_hash_x = 1, nr_hash_y = 2}, #h2{nr_hash_q = 2}, #h0{},
          #h2{nr_hash_q = [a, {b}], nr_hash_p = <<"x">>},
          records:create(nr_hash_m, nr_hash_n, [], #{is_exported => true}),
          records:create(nr_hash_m, nr_hash_n, [{nr_hash_z, 1}], #{is_exported => false})],
    io:format("~w~n", [[erlang:phash2(R) || R <- Rs]]),
    io:format("~w~n", [[erlang:phash2(R, 1000) || R <- Rs]]),
    io:format("~w~n", [[erlang:phash2({R, [R]}) || R <- Rs]]),
    M = maps:from_list([{R, I} || {I, R} <- lists:enumerate(Rs)]),
    io:format("~w~n", [[maps:get(R, M) || R <- Rs]]),
    io:format("~w~n", [[maps:is_key(#h1{nr_hash_x = 1.0, nr_hash_y = 2}, M),
                        maps:is_key(#h1{nr_hash_x = 1, nr_hash_y = 2}, M)]]),
    Big = maps:from_list([{#h1{nr_hash_x = I}, I} || I <- lists:seq(1, 100)]),
    io:format("~w~n", [[maps:get(#h1{nr_hash_x = I}, Big) || I <- [1, 50, 100]]]),
    ok.
