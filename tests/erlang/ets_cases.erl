%% ETS cases: each element of cases/0 is one result, compared with ~w
%% between erl and beamr. Results never contain table references or pids;
%% results from set and bag tables are sorted (their order is internal).
-module(ets_cases).
-export([cases/0, main/0]).

main() ->
    exit({cases, cases()}).

e(F) ->
    try F() catch C:R -> {C, R} end.

s(L) -> lists:sort(L).

cases() ->
    lists:append([basic(), kinds(), errors(), matching(), select(), traversal(),
                  counters(), info(), owners(), misc()]).

basic() ->
    T = ets:new(t, []),
    R1 = ets:insert(T, {a, 1}),
    R2 = ets:insert(T, [{b, 2}, {c, 3}]),
    R3 = ets:lookup(T, a),
    R4 = ets:lookup(T, zz),
    R5 = ets:member(T, b),
    R6 = ets:member(T, zz),
    R7 = ets:insert(T, {a, 10}),
    R8 = ets:lookup(T, a),
    R9 = ets:insert_new(T, {a, 99}),
    R10 = ets:insert_new(T, [{d, 4}, {e, 5}]),
    R11 = ets:insert_new(T, [{f, 6}, {a, 5}]),
    R12 = ets:lookup(T, f),
    R13 = ets:delete(T, b),
    R14 = ets:lookup(T, b),
    R15 = s(ets:tab2list(T)),
    R16 = ets:lookup_element(T, c, 2),
    R17 = e(fun() -> ets:lookup_element(T, c, 3) end),
    R18 = e(fun() -> ets:lookup_element(T, zz, 2) end),
    R19 = ets:delete_object(T, {c, 4}),
    R20 = ets:lookup(T, c),
    R21 = ets:delete_object(T, {c, 3}),
    R22 = ets:lookup(T, c),
    R23 = ets:take(T, d),
    R24 = ets:take(T, d),
    R25 = ets:info(T, size),
    R26 = ets:delete_all_objects(T),
    R27 = ets:info(T, size),
    R28 = ets:delete(T),
    R29 = ets:info(T),
    R30 = e(fun() -> ets:lookup(T, a) end),
    Big = {k, lists:seq(1, 100), <<"binary data that is long enough to be off heap, more than 64 bytes long....">>, 3.5, 123456789012345678901234567890},
    T2 = ets:new(t2, [set]),
    ets:insert(T2, Big),
    garbage(),
    R31 = ets:lookup(T2, k) =:= [Big],
    [R1, R2, R3, R4, R5, R6, R7, R8, R9, R10, R11, R12, R13, R14, R15, R16, R17,
     R18, R19, R20, R21, R22, R23, R24, R25, R26, R27, R28, R29, R30, R31].

garbage() ->
    _ = [lists:seq(1, 500) || _ <- lists:seq(1, 400)],

    ok.

kinds() ->
    S = ets:new(s, [set]),
    ets:insert(S, [{1, a}, {1.0, b}, {2, c}]),
    O = ets:new(o, [ordered_set]),
    ets:insert(O, [{1, a}, {1.0, b}, {2, c}, {0, z}, {abc, d}, {"str", e}, {{t}, f}]),
    B = ets:new(b, [bag]),
    ets:insert(B, [{k, 1}, {k, 2}, {k, 1}, {j, 1}]),
    D = ets:new(d, [duplicate_bag]),
    ets:insert(D, [{k, 1}, {k, 2}, {k, 1}, {j, 1}]),
    K = ets:new(k, [{keypos, 2}]),
    ets:insert(K, [{x, 1, a}, {y, 2, b}, {z, 1, c}]),
    [s(ets:tab2list(S)), ets:lookup(S, 1), ets:lookup(S, 1.0),
     ets:tab2list(O), ets:lookup(O, 1), ets:lookup(O, 1.0), ets:first(O), ets:last(O),
     ets:lookup(B, k), s(ets:tab2list(B)), ets:lookup(D, k), ets:info(D, size),
     ets:delete_object(D, {k, 1}), ets:lookup(D, k),
     ets:delete_object(B, {k, 1}), ets:lookup(B, k),
     ets:lookup(K, 1), s(ets:tab2list(K)), ets:lookup_element(B, k, 2),
     ets:insert(B, {k, 3}), ets:lookup(B, k), ets:lookup_element(B, k, 2),
     e(fun() -> ets:insert(K, {only}) end),
     ets:info(O, type), ets:info(B, type), ets:info(D, type), ets:info(K, keypos)].

errors() ->
    T = ets:new(e, []),
    [e(fun() -> ets:new(x, [foo]) end),
     e(fun() -> ets:new("x", []) end),
     e(fun() -> ets:new(x, [{keypos, 0}]) end),
     e(fun() -> ets:new(x, bad) end),
     e(fun() -> ets:insert(T, notatuple) end),
     e(fun() -> ets:insert(T, {}) end),
     e(fun() -> ets:insert(T, [{a}, b]) end),
     e(fun() -> ets:insert(no_such_table, {a}) end),
     e(fun() -> ets:lookup(no_such_table, a) end),
     e(fun() -> ets:lookup(123, a) end),
     e(fun() -> ets:delete(no_such_table) end),
     e(fun() -> ets:select(T, bad_ms) end),
     e(fun() -> ets:select(T, [{'$1', [], ['$2']}]) end),
     e(fun() -> ets:select(T, [{'$1', [{foo, '$1'}], ['$1']}]) end),
     e(fun() -> ets:lookup_element(T, a, 0) end),
     e(fun() -> ets:update_counter(T, a, 1) end),
     e(fun() -> ets:first(no_such_table) end),
     e(fun() -> ets:next(T, nokey) end),
     e(fun() -> ets:match(no_such_table, '_') end),
     e(fun() -> ets:info(no_such_table) end),
     e(fun() -> ets:info(no_such_table, size) end),
     e(fun() -> ets:info(T, bad_item) end),
     e(fun() -> ets:whereis(no_such_table) end),
     e(fun() -> ets:new(named_dup, [named_table]), ets:new(named_dup, [named_table]) end),
     e(fun() -> is_reference(ets:rename(T, named_dup)) end),
     e(fun() -> ets:rename(named_dup, named_dup) end),
     e(fun() -> ets:new(named_dup2, [named_table]), ets:rename(named_dup2, named_dup) end),
     e(fun() -> ets:give_away(T, self(), x) end)].

matching() ->
    T = ets:new(m, [ordered_set]),
    ets:insert(T, [{1, a, x}, {2, b, y}, {3, a, z}, {4, {n, 1}, [1, 2]}, {5, c, #{k => v}}]),
    [ets:match(T, {'$1', a, '_'}),
     ets:match(T, {'$2', '$1', '_'}),
     ets:match(T, {'_', '_', '_'}),
     ets:match(T, {'$1', '$1', '_'}),
     ets:match_object(T, {'_', a, '_'}),
     ets:match_object(T, {'_', {n, '$1'}, ['$1' | '_']}),
     ets:match_object(T, {'_', '_', #{k => '$1'}}),
     ets:match(T, {'_', '_', #{k => '$1'}}),
     ets:match(T, {3, '$1', '$2'}),
     ets:match(T, '$1'),
     ets:match_object(T, {'_', c, '_', extra}),
     ets:match(T, {'$1', b, '$9'}),
     ets:match(T, {'$10', '$2', '_'}),
     ets:match_object(T, '_'),
     ets:match(T, {'$1', '$_', '_'}),
     ets:match(T, {'$1', '$$', '_'})].

select() ->
    T = ets:new(sel, [ordered_set]),
    ets:insert(T, [{I, I * I, if I rem 2 =:= 0 -> even; true -> odd end} || I <- lists:seq(1, 10)]),
    [ets:select(T, [{{'$1', '$2', even}, [], ['$2']}]),
     ets:select(T, [{{'$1', '$2', '_'}, [{'>', '$2', 50}], ['$1']}]),
     ets:select(T, [{{'$1', '$2', '_'}, [{'andalso', {'>', '$1', 2}, {'<', '$1', 5}}], [{{'$2', '$1'}}]}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'orelse', {'==', '$1', 1}, {'=:=', '$1', 10}}], ['$_']}]),
     ets:select(T, [{{'$1', '_', odd}, [], ['$$']}]),
     ets:select(T, [{{'$1', '_', '$3'}, [{is_integer, '$1'}, {'=:=', '$3', odd}], [{const, {x, '$1'}}]}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'==', {'rem', '$1', 3}, 0}], [['$1', {'+', '$1', 1}]]}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'<', '$1', 3}], [{element, 3, '$_'}]}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'<', '$1', 3}], [{'*', '$1', 2.5}]}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'<', '$1', 3}], [#{key => '$1'}]}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'<', '$1', 3}], [{element, 9, '$_'}]}]),
     ets:select(T, [{{'$1', '_', '_'}, [{element, 9, '$_'}], ['$1']}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'>', '$1', 8}], [true, '$1']}]),
     ets:select(T, [{{1, '_', '_'}, [], [first]}, {{'$1', '_', '_'}, [{'>', '$1', 9}], [last]}]),
     ets:select(T, [{{3, '$1', '_'}, [], ['$1']}]),
     ets:select(T, [{{'$1', '_', '_'}, [{is_atom, '$1'}], ['$1']}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'not', {'<', '$1', 9}}], [{self}]}]) =:= [self(), self()],
     ets:select(T, [{{'$1', '_', '_'}, [{'<', '$1', 3}], [{{'$1', {hd, [a, b]}, {abs, {'-', '$1'}}}}]}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'<', '$1', 3}, true], ['$1']}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'<', '$1', 3}, false], ['$1']}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'<', '$1', 3}, {const, true}], ['$1']}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'band', '$1', 1}], ['$1']}]),
     ets:select(T, [{{'$1', '_', '_'}, [{'==', {'band', '$1', 1}, 1}, {'>', '$1', 5}], [{float, '$1'}]}]),
     ets:select_reverse(T, [{{'$1', '_', even}, [], ['$1']}]),
     ets:select_count(T, [{{'_', '_', even}, [], [true]}]),
     ets:select_count(T, [{{'$1', '_', '_'}, [{'>', '$1', 3}], [true]}]),
     ets:select_count(T, [{{'$1', '_', '_'}, [], [false]}]),
     ets:select_delete(T, [{{'$1', '_', odd}, [{'>', '$1', 4}], [true]}]),
     ets:select(T, [{{'$1', '_', '_'}, [], ['$1']}]),
     chunks(ets:select(T, [{{'$1', '_', '_'}, [], ['$1']}], 3), []),
     chunks(ets:match(T, {'$1', '_', even}, 2), []),
     chunks(ets:match_object(T, {'_', '_', odd}, 10), []),
     ets:select(T, [{{'$1', '_', '_'}, [{'>', '$1', 100}], ['$1']}], 3),
     ets:select(T, []),
     ets:match_spec_run([{a, 1}, {b, 2}, {c, 3}],
                        ets:match_spec_compile([{{'$1', '$2'}, [{'>', '$2', 1}], ['$1']}])),
     ets:is_compiled_ms(ets:match_spec_compile([{'_', [], [true]}])),
     ets:is_compiled_ms(foo),
     ets:select(T, [{{'$1', '_', '_'}, [{'=:=', '$1', {const, 2}}], [{{'$1', '$_'}}]}]),
     ets:select(T, [{{'$1', '$2', '_'}, [{is_record, '$_', '$1', 3}], ['$1']}]),
     e(fun() -> ets:select(T, [{{'$1', '_', '$2'}, [{'==', '$2', even}], [{tuple_size, '$_'}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [{is_boolean, '$1'}], ['$1']}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [{is_bitstring, '$1'}], ['$1']}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [{min, '$1', 3}], ['$1']}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{is_map_key, a, '$1'}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{map_size, '$1'}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{binary_part, <<"abc">>, 0, 1}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{node}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{size, {{'$1'}}}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{bit_size, <<"ab">>}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{byte_size, <<"ab">>}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{'xor', true, '$1'}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{'/', '$1', 2}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{'div', '$1', 0}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{length, [1,2]}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{tl, [1,2]}, {round, 2.5}, {trunc, 2.5}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{is_function, '$1'}]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], [{map_get, a, #{a => '$1'}}]}]) end),
     e(fun() -> ets:select(T, [{foo, [], [true]}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], []}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], ['$2']}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, foo, ['$1']}]) end),
     e(fun() -> ets:select(T, [{{'$1', '_', '_'}, [], ['$1']} | foo]) end),
     e(fun() -> ets:select(T, [{{'$1', '_'}, [], ['$1']}, {{'$1', '_', '_'}}]) end)].

chunks('$end_of_table', Acc) ->
    lists:reverse(Acc);
chunks({Items, Cont}, Acc) ->
    chunks(ets:select(Cont), [Items | Acc]).

traversal() ->
    O = ets:new(tr, [ordered_set]),
    ets:insert(O, [{K} || K <- [5, 3, 9, 1, 7]]),
    S = ets:new(trs, [set]),
    ets:insert(S, [{K} || K <- lists:seq(1, 50)]),
    Keys = walk(S, ets:first(S), []),
    E = ets:new(empty, []),
    [ets:first(O), ets:next(O, 1), ets:next(O, 4), ets:next(O, 9), ets:prev(O, 9), ets:prev(O, 1),
     ets:prev(O, 6), ets:last(O), ets:first(E), ets:last(E), ets:next(O, 100),
     s(Keys), length(Keys),
     ets:foldl(fun({K}, A) -> [K | A] end, [], O),
     ets:foldr(fun({K}, A) -> [K | A] end, [], O),
     lists:sum(ets:foldl(fun({K}, A) -> [K | A] end, [], S)),
     fold_delete(S)].

walk(_, '$end_of_table', Acc) -> Acc;
walk(T, K, Acc) -> walk(T, ets:next(T, K), [K | Acc]).

%% Deleting each key while folding (the table is fixed by foldl).
fold_delete(S) ->
    N = ets:foldl(fun({K}, A) -> ets:delete(S, K), A + 1 end, 0, S),
    {N, ets:info(S, size)}.

counters() ->
    T = ets:new(c, [set]),
    ets:insert(T, {c, 0, 10, x}),
    [ets:update_counter(T, c, 1),
     ets:update_counter(T, c, {3, 5}),
     ets:update_counter(T, c, [{2, 1}, {3, -1}]),
     ets:update_counter(T, c, {2, 10, 5, 0}),
     ets:update_counter(T, c, {3, -20, 0, 100}),
     ets:update_counter(T, c, {2, 1 bsl 62}),
     ets:update_counter(T, c, {2, 1 bsl 62}),
     ets:lookup(T, c),
     e(fun() -> ets:update_counter(T, c, {4, 1}) end),
     e(fun() -> ets:update_counter(T, c, {1, 1}) end),
     e(fun() -> ets:update_counter(T, c, {5, 1}) end),
     e(fun() -> ets:update_counter(T, nokey, 1) end),
     e(fun() -> ets:update_counter(T, c, foo) end),
     ets:update_counter(T, newkey, 5, {newkey, 100}),
     ets:update_counter(T, other, {3, 1}, {ignored, 0, 7}),
     ets:lookup(T, other),
     ets:update_element(T, c, {4, y}),
     ets:update_element(T, c, [{2, a}, {3, b}]),
     ets:lookup(T, c),
     ets:update_element(T, nokey, {2, a}),
     e(fun() -> ets:update_element(T, c, {1, a}) end),
     e(fun() -> ets:update_element(T, c, {9, a}) end),
     e(fun() -> ets:update_counter(ets:new(bb, [bag]), a, 1) end)].

info() ->
    T = ets:new(inf, [ordered_set, public, {keypos, 2}, named_table, {read_concurrency, true}]),
    ets:insert(inf, {x, 1}),
    I = ets:info(T),
    U = ets:new(inf2, [private]),
    [T, proplists:get_value(name, I), proplists:get_value(size, I), proplists:get_value(type, I),
     proplists:get_value(keypos, I), proplists:get_value(protection, I),
     proplists:get_value(named_table, I), proplists:get_value(read_concurrency, I),
     proplists:get_value(heir, I), proplists:get_value(owner, I) =:= self(),
     [K || {K, _} <- I],
     ets:info(U, named_table), ets:info(U, name), ets:info(U, protection),
     ets:info(T, owner) =:= self(),
     is_reference(ets:whereis(inf)), ets:whereis(nope),
     ets:lookup(ets:whereis(inf), 1),
     ets:rename(inf, inf_renamed),
     ets:info(inf_renamed, size),
     e(fun() -> ets:info(inf, size) end),
     lists:member(inf_renamed, ets:all()),
     ets:delete(inf_renamed),
     lists:member(inf_renamed, ets:all())].

owners() ->
    Self = self(),
    %% A table dies with its owner.
    P1 = spawn(fun() -> ets:new(dies, [named_table, public]), Self ! made, receive stop -> ok end end),
    receive made -> ok end,
    A1 = ets:info(dies, size),
    M1 = monitor(process, P1),
    P1 ! stop,
    receive {'DOWN', M1, _, _, _} -> ok end,
    A2 = ets:info(dies),
    %% Protected: others read, cannot write; private: others cannot read.
    P2 = spawn(fun() ->
                   ets:new(prot, [named_table, protected]),
                   ets:insert(prot, {a, 1}),
                   ets:new(priv, [named_table, private]),
                   Self ! made,
                   receive stop -> ok end
               end),
    receive made -> ok end,
    A3 = ets:lookup(prot, a),
    A4 = e(fun() -> ets:insert(prot, {b, 2}) end),
    A5 = e(fun() -> ets:lookup(priv, a) end),
    A6 = e(fun() -> ets:delete(prot) end),
    A7 = ets:info(priv, size),
    exit(P2, kill),
    %% An heir gets the table and a message. (Each message below comes at
    %% once; its timeout only ends a run where it did not, timeout then
    %% being the result, and is long for a loaded machine.)
    P3 = spawn(fun() ->
                   T = ets:new(inherited, [named_table, {heir, Self, gift}]),
                   ets:insert(T, {k, v}),
                   Self ! made,
                   receive stop -> ok end
               end),
    receive made -> ok end,
    P3 ! stop,
    A8 = receive {'ETS-TRANSFER', Tab, From, Data} -> {Tab, From =:= P3, Data} after 30000 -> timeout end,
    A9 = ets:info(inherited, owner) =:= Self,
    A10 = ets:lookup(inherited, k),
    %% give_away.
    P4 = spawn(fun() -> receive {'ETS-TRANSFER', T, _, D} -> Self ! {got, D, ets:lookup(T, k)} end, receive stop -> ok end end),
    A11 = ets:give_away(inherited, P4, present),
    A12 = receive {got, D, L} -> {D, L} after 30000 -> timeout end,
    A13 = ets:info(inherited, owner) =:= P4,
    A14 = e(fun() -> ets:give_away(inherited, self(), x) end),
    A15 = e(fun() -> ets:insert(inherited, {z}) end),
    exit(P4, kill),
    A16 = receive {'ETS-TRANSFER', inherited, P4, gift} -> {back, ets:info(inherited, owner) =:= Self} after 30000 -> timeout end,
    ets:setopts(inherited, {heir, none}),
    P6 = spawn(fun() -> receive {'ETS-TRANSFER', _, _, _} -> ok end, receive stop -> ok end end),
    ets:give_away(inherited, P6, again),
    M6 = monitor(process, P6),
    exit(P6, kill),
    receive {'DOWN', M6, _, _, _} -> ok end,
    wait_gone(inherited),
    %% Many processes writing a public table at once.
    T5 = ets:new(shared, [public, set]),
    Ps = [spawn(fun() -> [ets:insert(T5, {{I, J}, J}) || J <- lists:seq(1, 100)],
                         [ets:update_counter(T5, count, 1, {count, 0}) || _ <- lists:seq(1, 100)],
                         Self ! {done, I} end) || I <- lists:seq(1, 8)],
    [receive {done, I} -> ok end || I <- lists:seq(1, 8)],
    A17 = {length(Ps), ets:info(T5, size), ets:lookup(T5, count)},
    [A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, A12, A13, A14, A15, A16, A17, ets:info(inherited)].

wait_gone(Name) ->
    case ets:info(Name) of
        undefined -> ok;
        _ -> receive after 1 -> wait_gone(Name) end
    end.

misc() ->
    T = ets:new(misc, [set]),
    ets:insert(T, {a, 1}),
    ets:safe_fixtable(T, true),
    ets:insert(T, {b, 2}),
    ets:safe_fixtable(T, false),
    L = [{I, integer_to_list(I)} || I <- lists:seq(1, 1000)],
    ets:insert(T, L),
    [ets:info(T, size), ets:lookup(T, 500), ets:member(T, 1001),
     length(ets:select(T, [{{'$1', '_'}, [{is_integer, '$1'}, {'>', '$1', 990}], ['$1']}])),
     lists:sort(ets:select(T, [{{'$1', '_'}, [{is_integer, '$1'}, {'>', '$1', 990}], ['$1']}])),
     ets:select(T, [{{500, '$1'}, [], ['$1']}]),
     s(ets:select(T, [{{500, '$1'}, [], ['$1']}, {{501, '$1'}, [], ['$1']}])),
     ets:match_object(T, {a, '_'}),
     ets:select_delete(T, [{{'$1', '_'}, [{is_integer, '$1'}], [true]}]),
     s(ets:tab2list(T))].
