%% Large maps for beamr's `map` tests: the order OTP 25 lists their keys in.
%%
%% main(Path) writes to Path a sequence of cases, each as
%%   Len:32, term_to_binary(Case):Len
%% where Case = {Name, Exact, Pairs, Removals, ToListKeys, NextKeys, NodeWords}:
%%   Name        a binary naming the case
%%   Exact       true if beamr must reproduce the order exactly (the keys
%%               hash the same in every VM); false for keys whose OTP hash
%%               depends on this VM instance (atoms), compared as sets
%%   Pairs       the {Key, Value} pairs the map was built from, in order
%%               (maps:from_list/1, later pairs win)
%%   Removals    keys then removed one by one with maps:remove/2
%%   ToListKeys  maps:keys/1 of the result (the maps:to_list/1 order)
%%   NextKeys    the keys in maps:iterator/1 + maps:next/1 order
%%   NodeWords   erts_debug:flat_size/1 of the map minus that of its keys
%%               and values: the words of its nodes and leaves (its shape)
-module(map_order).
-export([main/1]).

main(Path) ->
    rand:seed(exsss, {7, 11, 13}),
    Cases = cases(),
    Bin = [begin B = term_to_binary(C), <<(byte_size(B)):32, B/binary>> end
           || C <- Cases],
    ok = file:write_file(Path, Bin).

cases() ->
    Seq = fun(N) -> pairs(lists:seq(1, N)) end,
    [case_of(<<"ints 1..", (integer_to_binary(N))/binary>>, true, Seq(N), [])
     || N <- [1, 2, 31, 32, 33, 34, 40, 64, 100, 257, 1000, 2000]]
    ++ [case_of(<<"random ints">>, true, pairs(rand_ints(600, 1 bsl 59)), []),
        case_of(<<"negative ints">>, true, pairs([-I || I <- lists:seq(1, 300)]), []),
        case_of(<<"bignums">>, true,
                pairs([(1 bsl 64) + rand:uniform(1 bsl 80) || _ <- lists:seq(1, 200)]
                      ++ [-(1 bsl 70) - I || I <- lists:seq(1, 100)]), []),
        case_of(<<"floats">>, true,
                pairs([rand:uniform() * 1.0e6 || _ <- lists:seq(1, 300)]
                      ++ [0.0, 1.0, -1.0, 1.0e300, -2.5, 5.0e-324]), []),
        case_of(<<"integers and equal floats">>, true,
                pairs(lists:seq(1, 50) ++ [float(I) || I <- lists:seq(1, 50)]), []),
        case_of(<<"binaries">>, true,
                pairs([rand_bytes(rand:uniform(30) - 1) || _ <- lists:seq(1, 300)]
                      ++ [<<>>, list_to_binary(lists:seq(1, 100))]), []),
        case_of(<<"bitstrings">>, true,
                pairs([<<(rand_bytes(rand:uniform(5)))/binary, (rand:uniform(7)):3>>
                       || _ <- lists:seq(1, 200)] ++ [<<1:1>>, <<0:1>>, <<5:7>>]), []),
        case_of(<<"tuples">>, true,
                pairs([{I, I * 2} || I <- lists:seq(1, 200)]
                      ++ [{} , {1}, {1.0}, {<<"x">>, [1, 2]}, {{1, 2}, 3}]), []),
        case_of(<<"strings and lists">>, true,
                pairs(["key" ++ integer_to_list(I) || I <- lists:seq(1, 150)]
                      ++ [[I, 1000 + I] || I <- lists:seq(1, 50)]
                      ++ [[I | I + 1] || I <- lists:seq(1, 50)]
                      ++ [[I, 2, 3, 4, 5 | 6] || I <- lists:seq(1, 20)]
                      ++ [[], [[]], [[1]], [1.5], [-1], [256], [255]]), []),
        case_of(<<"small maps as keys">>, true,
                pairs([#{I => I} || I <- lists:seq(1, 40)]
                      ++ [#{I => [I], {I} => <<I>>} || I <- lists:seq(1, 3)]
                      ++ [#{}]), []),
        case_of(<<"mixed">>, true,
                pairs(lists:seq(1, 100) ++ [float(I) + 0.5 || I <- lists:seq(1, 100)]
                      ++ [<<I>> || I <- lists:seq(1, 100)] ++ [{I} || I <- lists:seq(1, 100)]
                      ++ [1 bsl 60 + I || I <- lists:seq(1, 100)]
                      ++ [[I] || I <- lists:seq(1, 100)]), []),
        %% Pairs of small integers whose first-round hashes are equal: the
        %% trie goes past depth 8 and rehashes them.
        case_of(<<"32-bit hash collisions">>, true,
                pairs([40660, 59671, 22575, 119693, 121236, 167527, 169647, 178740,
                       29879, 217607, 204923, 232672] ++ lists:seq(1, 30)), []),
        case_of(<<"duplicate keys, later wins">>, true,
                [{I rem 70, I} || I <- lists:seq(1, 300)], []),
        case_of(<<"maps with atoms as keys">>, false,
                pairs([#{a_key => I} || I <- lists:seq(1, 40)]), []),
        case_of(<<"atoms">>, false,
                pairs([list_to_atom("atom_" ++ integer_to_list(I)) || I <- lists:seq(1, 120)]),
                []),
        case_of(<<"remove down to 100">>, true, Seq(300), lists:seq(1, 200)),
        case_of(<<"remove down to 33">>, true, Seq(300), lists:seq(300, 34, -1)),
        case_of(<<"remove down to 32 (flat again)">>, true, Seq(300), lists:seq(1, 268)),
        case_of(<<"remove down to 0">>, true, Seq(40), lists:seq(1, 40)),
        case_of(<<"remove absent keys">>, true, Seq(50), [0, 51, 1.0, a, <<>>]),
        case_of(<<"remove random">>, true, pairs(rand_ints(500, 5000)),
                rand_ints(700, 5000))].

pairs(Keys) ->
    lists:zip(Keys, lists:seq(1, length(Keys))).

rand_ints(N, Max) ->
    [rand:uniform(Max) - Max div 2 || _ <- lists:seq(1, N)].

rand_bytes(N) ->
    list_to_binary([rand:uniform(256) - 1 || _ <- lists:seq(1, N)]).

case_of(Name, Exact, Pairs, Removals) ->
    M = lists:foldl(fun maps:remove/2, maps:from_list(Pairs), Removals),
    {Name, Exact, Pairs, Removals, maps:keys(M), next_keys(maps:iterator(M)),
     node_words(M)}.

next_keys(It) ->
    case maps:next(It) of
        none -> [];
        {K, _, Next} -> [K | next_keys(Next)]
    end.

node_words(M) ->
    erts_debug:flat_size(M)
        - lists:sum([erts_debug:flat_size(K) + erts_debug:flat_size(V)
                     || {K, V} <- maps:to_list(M)]).
