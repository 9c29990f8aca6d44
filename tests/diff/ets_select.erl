%% ETS match specifications: select with guards and bodies, select_count,
%% select_delete, chunked select, ets:fun2ms, match_spec_run.
-module(ets_select).
-export([main/0]).
-include_lib("stdlib/include/ms_transform.hrl").

-record(emp, {id, name, dept, salary}).

main() ->
    T = ets:new(emps, [ordered_set, {keypos, #emp.id}]),
    ets:insert(T, [#emp{id = I, name = Nm, dept = Dp, salary = Sa}
                   || {I, Nm, Dp, Sa} <- [{1, ann, eng, 120}, {2, bob, ops, 90},
                                       {3, cid, eng, 150}, {4, dee, sales, 70},
                                       {5, eve, eng, 99}, {6, fay, ops, 130}]]),
    Eng = ets:fun2ms(fun(#emp{name = N, dept = eng, salary = S}) when S > 100 -> {N, S} end),
    io:format("fun2ms spec ~p~n", [Eng]),
    io:format("eng > 100 ~p~n", [ets:select(T, Eng)]),
    io:format("names ~p~n", [ets:select(T, ets:fun2ms(fun(#emp{name = N}) -> N end))]),
    io:format("raise ~p~n", [ets:select(T, [{#emp{salary = '$1', name = '$2', _ = '_'},
                                             [{'<', '$1', 100}],
                                             [{{'$2', {'*', '$1', 1.1}}}]}])]),
    io:format("multi clause ~p~n", [ets:select(T, [{#emp{dept = ops, name = '$1', _ = '_'}, [], [{{ops, '$1'}}]},
                                                   {#emp{dept = sales, name = '$1', _ = '_'}, [], [{{sales, '$1'}}]}])]),
    io:format("$$ ~p~n", [ets:select(T, [{#emp{id = '$1', name = '$2', _ = '_'}, [{'>=', '$1', 5}], ['$$']}])]),
    io:format("orelse ~p~n", [ets:select(T, [{#emp{id = '$1', _ = '_'},
                                              [{'orelse', {'=:=', '$1', 1}, {'=:=', '$1', 6}}], ['$_']}])]),
    io:format("count ~p~n", [ets:select_count(T, ets:fun2ms(fun(#emp{dept = D}) when D =/= eng -> true end))]),
    io:format("reverse ~p~n", [ets:select_reverse(T, [{#emp{id = '$1', _ = '_'}, [], ['$1']}])]),
    io:format("chunks ~p~n", [chunks(ets:select(T, [{#emp{name = '$1', _ = '_'}, [], ['$1']}], 4))]),
    io:format("run ~p~n", [ets:match_spec_run([{1, a}, {2, b}, {3, c}],
                                              ets:match_spec_compile([{{'$1', '$2'}, [{'>', '$1', 1}], ['$2']}]))]),
    io:format("body error ~p~n", [ets:select(T, [{#emp{name = '$1', _ = '_'}, [], [{'+', '$1', 1}]}])]),
    io:format("deleted ~p~n", [ets:select_delete(T, ets:fun2ms(fun(#emp{salary = S}) when S < 100 -> true end))]),
    io:format("left ~p~n", [[E#emp.name || E <- ets:tab2list(T)]]),
    io:format("bad spec ~p~n", [try ets:select(T, [{'_', [], ['$3']}]) catch error:R -> R end]),
    ok.

chunks('$end_of_table') -> [];
chunks({Items, Cont}) -> [Items | chunks(ets:select(Cont))].
