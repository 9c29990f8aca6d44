%% diff-requires-otp: 29
-module(native_record_order).
%% Native records in the term order (after tuples, before maps), among
%% themselves (module, name, exportedness, field count, field names,
%% values), and under == and =:=.
-export([main/0]).
-export_record([z]).

-record #p{x = 0, y = 0}.
-record #q{b, a = 1}.
-record #e{}.
-record #z{k}.
-record #a{f1, f2, f3}.

c(Fs, E) -> records:create(cm, cn, Fs, #{is_exported => E}).

main() ->
    P = #p{x = 1, y = 2},
    Terms = [P, #q{b = 2}, #e{}, #p{}, #p{x = 2}, #p{y = 1}, 1, a, {a}, {}, #{}, [], [a], <<>>, 2.0],
    io:format("~w~n", [lists:sort(Terms)]),
    io:format("~w~n", [[P == #p{x = 1, y = 2}, P =:= #p{x = 1.0, y = 2}, P == #p{x = 1.0, y = 2},
                        P < #q{b = 0}, #e{} < P, #p{x = 1} < #p{x = 2}, #p{y = 1} < #p{x = 1}]]),
    io:format("~w~n", [[#a{f1 = 1, f2 = 2, f3 = 3} < #z{k = 1}, #z{k = 1} < #z{k = a}, #z{k = 2} < #z{k = 1.0},
                        #z{k = 1} < #z{k = 1.0}, #z{k = 1.0} < #z{k = 1},
                        #z{k = 1} == #z{k = 1.0}, #z{k = 1} /= #z{k = 1.0}, #z{k = 1} =:= #z{k = 1.0}]]),
    io:format("~w~n", [[{#z{k = 1}} == {#z{k = 1.0}}, [#z{k = 1}] == [#z{k = 1.0}],
                        #{a => #z{k = 1}} == #{a => #z{k = 1.0}}]]),
    io:format("~w~n", [[c([{a, 1}], true) < c([{a, 1}, {b, 0}], true),
                        c([{a, 1}], false) < c([{a, 1}], true),
                        c([{a, 2}], false) < c([{a, 1}], true),
                        c([{b, 1}], true) < c([{a, 1}], true),
                        c([{b, 0}], true) < c([{a, 1}], true),
                        c([{a, 1}, {b, 2}], true) < c([{b, 2}, {a, 1}], true),
                        c([{a, 1}], true) < c([{a, 1.0}], true),
                        c([{a, 1}], true) == c([{a, 1.0}], true),
                        c([{a, 1}], true) =:= c([{a, 1.0}], true)]]),
    io:format("~w~n", [lists:sort([c([{b, 1}], true), c([{a, 1}], true), c([{a, 0}], false),
                                   c([], true), c([], false), c([{a, 1}, {b, 1}], false)])]),
    R3 = records:create(?MODULE, z, [{k, 1}], #{is_exported => false}),
    R4 = records:create(?MODULE, z, [{k, 1}], #{is_exported => true}),
    io:format("~w~n", [[R3 =:= #z{k = 1}, R4 =:= #z{k = 1}, R3 < R4,
                        records:create(aaa, zz, [], #{is_exported => true}) < #e{},
                        lists:usort([#p{}, #p{}, #p{x = 0, y = 0}])]]),
    ok.
