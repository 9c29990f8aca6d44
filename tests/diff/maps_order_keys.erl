-module(maps_order_keys).
-export([main/0]).

%% The iteration order of maps (maps:to_list, maps:keys, maps:fold, ~w,
%% ~p, term_to_binary) with keys of every kind but boot-time atoms: small
%% (flat) and large (hash trie) maps of integers, bignums, floats, binaries,
%% bitstrings, strings, tuples, lists, nested maps and mixes, built in
%% different insertion orders. OTP 25 and OTP 26+ order them differently;
%% each release prints its own order.
main() ->
    Kinds = [{integers, fun(I) -> I * 7 - 50 end},
             {bignums, fun(I) -> (1 bsl 70) * I - I end},
             {floats, fun(I) -> I / 8 - 2.0 end},
             {binaries, fun(I) -> integer_to_binary(I * 13) end},
             {long_binaries, fun(I) -> binary:copy(<<I>>, I + 10) end},
             {bitstrings, fun(I) -> <<I:(I rem 7 + 3)>> end},
             {strings, fun(I) -> "k" ++ integer_to_list(I) end},
             {tuples, fun(I) -> {I, -I} end},
             {nested, fun(I) -> {[I], {I, <<I>>}, #{I => I}} end},
             {mixed, fun(I) -> element(I rem 5 + 1, {I, I * 1.5, <<I:16>>, {I}, [I, I]}) end}],
    [show(Name, F, N) || {Name, F} <- Kinds, N <- [5, 32, 33, 70]],
    ok.

show(Name, F, N) ->
    Pairs = [{F(I), I} || I <- lists:seq(1, N)],
    M1 = maps:from_list(Pairs),
    M2 = maps:from_list(lists:reverse(Pairs)),
    M3 = lists:foldl(fun({K, V}, Acc) -> Acc#{K => V} end, #{}, Pairs),
    Same = maps:to_list(M1) =:= maps:to_list(M2) andalso maps:to_list(M1) =:= maps:to_list(M3),
    io:format("~p ~p: same order ~p~n", [Name, N, Same]),
    io:format("  values ~w~n", [maps:values(M1)]),
    io:format("  fold ~w~n", [maps:fold(fun(_, V, Acc) -> [V | Acc] end, [], M1)]),
    io:format("  next ~w~n", [walk(maps:next(maps:iterator(M1)))]),
    io:format("  t2b ~p~n", [erlang:md5(term_to_binary(M1))]),
    io:format("  round trip ~p~n", [binary_to_term(term_to_binary(M1)) =:= M1]),
    Deleted = maps:without([F(I) || I <- lists:seq(1, N, 3)], M1),
    io:format("  after deletes ~w~n", [maps:values(Deleted)]),
    case N of
        5 -> io:format("  ~p~n", [M1]);
        _ -> ok
    end.

walk(none) -> [];
walk({_K, V, Next}) -> [V | walk(maps:next(Next))].
