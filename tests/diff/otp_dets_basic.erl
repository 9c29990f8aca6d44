-module(otp_dets_basic).
-export([main/0]).

%% A small dets table (dets_server and dets_sup start under
%% kernel_safe_sup): open, insert, lookup, close, reopen, in a directory
%% the program makes and removes.
main() ->
    Dir = filename:join("/tmp", "beamr_dets_" ++ os:getpid()),
    ok = file:make_dir(Dir),
    File = filename:join(Dir, "d.dets"),
    {ok, T} = dets:open_file(d, [{file, File}, {type, set}]),
    io:format("open ~p~n", [T]),
    ok = dets:insert(T, [{N, N * N, atom_to_list(x)} || N <- lists:seq(1, 300)]),
    ok = dets:insert(T, {key, <<"value">>}),
    io:format("insert_new ~p ~p~n", [dets:insert_new(T, {key, other}), dets:insert_new(T, {new, 1})]),
    io:format("lookup ~p ~p ~p~n", [dets:lookup(T, 12), dets:lookup(T, key), dets:lookup(T, nope)]),
    io:format("member ~p ~p~n", [dets:member(T, 300), dets:member(T, 301)]),
    io:format("size ~p~n", [dets:info(T, size)]),
    ok = dets:delete(T, 1),
    io:format("match ~p~n", [lists:sort(dets:match(T, {'$1', 16, '_'}))]),
    io:format("select ~p~n", [lists:sort(dets:select(T, [{{'$1', '$2', '_'}, [{'<', '$1', 4}], ['$2']}]))]),
    io:format("foldl ~p~n", [dets:foldl(fun({K, _, _}, A) when is_integer(K) -> A + K; (_, A) -> A end, 0, T)]),
    ok = dets:close(T),
    io:format("closed ~p~n", [dets:info(T)]),
    {ok, T} = dets:open_file(d, [{file, File}]),
    io:format("reopened size ~p lookup ~p~n", [dets:info(T, size), dets:lookup(T, 5)]),
    io:format("type ~p keypos ~p~n", [dets:info(T, type), dets:info(T, keypos)]),
    ok = dets:close(T),
    {ok, B} = dets:open_file(b, [{file, filename:join(Dir, "b.dets")}, {type, bag}]),
    ok = dets:insert(B, [{k, 1}, {k, 2}, {k, 2}, {j, 3}]),
    io:format("bag ~p~n", [lists:sort(dets:lookup(B, k))]),
    ok = dets:close(B),
    io:format("safe sup children ~p~n",
              [lists:sort([Id || {Id, _, _, _} <- supervisor:which_children(kernel_safe_sup)])]),
    [ok = file:delete(F) || F <- filelib:wildcard(filename:join(Dir, "*"))],
    ok = file:del_dir(Dir).
