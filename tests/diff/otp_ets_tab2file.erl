-module(otp_ets_tab2file).
-export([main/0]).

%% ets:tab2file/2,3 and file2tab/1,2 through disk_log (started under
%% kernel_safe_sup), in a directory the program makes and removes.
main() ->
    Dir = filename:join("/tmp", "beamr_tab2file_" ++ os:getpid()),
    ok = file:make_dir(Dir),
    File = filename:join(Dir, "t.tab"),
    T = ets:new(people, [set, named_table, {keypos, 2}]),
    ets:insert(T, [{person, N, integer_to_list(N * N), <<N:32>>} || N <- lists:seq(1, 500)]),
    io:format("tab2file ~p~n", [ets:tab2file(T, File)]),
    io:format("info ~p~n", [lists:sort([{K, V} || {K, V} <- element(2, ets:tabfile_info(File)),
                                                lists:member(K, [name, type, protection, named_table, keypos, size, extended_info, version])])]),
    ets:delete(T),
    {ok, T2} = ets:file2tab(File),
    io:format("file2tab ~p ~p ~p~n", [T2, ets:info(T2, size), ets:info(T2, keypos)]),
    io:format("lookup ~p~n", [ets:lookup(T2, 7)]),
    io:format("sum ~p~n", [lists:sum([N || {person, N, _, _} <- ets:tab2list(T2)])]),
    ets:delete(T2),
    T3 = ets:new(bag_t, [bag]),
    ets:insert(T3, [{a, 1}, {a, 2}, {b, 3}]),
    ok = ets:tab2file(T3, File, [{extended_info, [object_count, md5sum]}]),
    {ok, T4} = ets:file2tab(File, [{verify, true}]),
    io:format("verified ~p~n", [lists:sort(ets:tab2list(T4))]),
    {error, {read_error, {file_error, _, Missing}}} = ets:file2tab(filename:join(Dir, "none.tab")),
    io:format("missing ~p~n", [Missing]),
    io:format("safe sup ~p~n", [is_pid(whereis(kernel_safe_sup))]),
    ok = file:delete(File),
    ok = file:del_dir(Dir).
