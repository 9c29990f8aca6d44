%% Randomness and timing built on the clocks: rand with its default seed
%% (ranges only) and with fixed seeds (exact values), timer:tc.
-module(time_rand).
-export([main/0]).

main() ->
    Xs = [rand:uniform(10) || _ <- lists:seq(1, 200)],
    io:format("uniform/1 in range: ~p~n", [lists:all(fun(X) -> X >= 1 andalso X =< 10 end, Xs)]),
    F = rand:uniform(),
    io:format("uniform/0 in range: ~p~n", [F >= 0.0 andalso F < 1.0]),
    [begin
         rand:seed(Alg, {1, 2, 3}),
         io:format("~p: ~p ~p~n", [Alg, [rand:uniform(1000) || _ <- lists:seq(1, 5)],
                                   rand:uniform()])
     end || Alg <- [exsss, exro928ss, exrop, exs1024s, exsp, exs64, exsplus, exs1024]],
    S0 = rand:seed_s(exsss, 42),
    {V1, S1} = rand:uniform_s(100, S0),
    {V2, _} = rand:uniform_s(100, S1),
    io:format("uniform_s: ~p ~p~n", [V1, V2]),
    rand:seed(exsss, 7),
    io:format("normal: ~p~n", [rand:normal()]),
    io:format("bytes: ~p~n", [rand:bytes(8)]),
    io:format("shuffle-ish: ~p~n", [[X || {_, X} <- lists:sort([{rand:uniform(), X} || X <- lists:seq(1, 8)])]]),
    {T, V} = timer:tc(fun() -> lists:sum(lists:seq(1, 10000)) end),
    io:format("tc/1: ~p ~p~n", [is_integer(T) andalso T >= 0, V]),
    {T2, V3} = timer:tc(lists, seq, [1, 3]),
    io:format("tc/3: ~p ~p~n", [is_integer(T2) andalso T2 >= 0, V3]),
    {T3, ok} = timer:tc(timer, sleep, [20]),
    io:format("tc slept: ~p~n", [T3 >= 20000]),
    ok.
