%% Hot code loading of the program's own module: a second copy of its
%% object code becomes current while main/0 still runs the first; a fully
%% qualified tail call moves main into the new version; purge kills a
%% process parked in the old one. Also module_info, the code path API and
%% the loader's report on a bad binary.
-module(code_reload).
-export([main/0, phase2/1, park/1, version_tag/0]).
-vsn_note(reload_test).

version_tag() -> tag.

main() ->
    M = ?MODULE,
    {M, Bin, _File} = code:get_object_code(M),
    io:format("loaded ~p, old ~p~n", [erlang:module_loaded(M), erlang:check_old_code(M)]),
    io:format("is_loaded ~p~n", [element(1, code:is_loaded(M))]),
    Parked = spawn(M, park, [self()]),
    receive {parked, Parked} -> ok end,
    io:format("load_module ~p~n", [erlang:load_module(M, Bin)]),
    io:format("old code ~p, parked in old ~p~n",
              [erlang:check_old_code(M), erlang:check_process_code(Parked, M)]),
    io:format("soft_purge while running ~p~n", [code:soft_purge(M)]),
    io:format("second load ~p~n", [erlang:load_module(M, Bin)]),
    ?MODULE:phase2(Parked).

phase2(Parked) ->
    M = ?MODULE,
    io:format("after qualified call: me in old ~p, parked in old ~p~n",
              [erlang:check_process_code(self(), M), erlang:check_process_code(Parked, M)]),
    io:format("soft_purge with parked process ~p~n", [code:soft_purge(M)]),
    Ref = monitor(process, Parked),
    io:format("purge ~p~n", [code:purge(M)]),
    receive {'DOWN', Ref, process, Parked, Why} -> io:format("parked process: ~p~n", [Why]) end,
    io:format("after purge: old ~p, purge again ~p~n", [erlang:check_old_code(M), code:purge(M)]),
    io:format("purge_module without old code ~p~n",
              [try erlang:purge_module(M) catch error:R -> R end]),
    io:format("module_info module ~p~n", [M:module_info(module)]),
    io:format("exports ~p~n", [M:module_info(exports)]),
    io:format("attributes ~p~n", [M:module_info(attributes)]),
    io:format("md5 ~p~n", [M:module_info(md5)]),
    io:format("md5 size ~p~n", [byte_size(erlang:get_module_info(M, md5))]),
    io:format("keys ~p~n", [[K || {K, _} <- M:module_info()]]),
    io:format("functions ~p~n", [lists:member({phase2, 1}, M:module_info(functions))]),
    io:format("bad key ~p~n", [try M:module_info(nonsense) catch error:R2 -> R2 end]),
    io:format("lists loaded ~p~n", [erlang:module_loaded(lists)]),
    io:format("no such module ~p ~p ~p~n",
              [code:which(no_such_module_here), code:is_loaded(no_such_module_here),
               code:load_file(no_such_module_here)]),
    logger_sync:watch(),
    Bad = erlang:load_module(M, <<"junk">>),
    %% The loader logs why (on its own time on erl): let it out first.
    logger_sync:logged(),
    io:format("bad binary ~p~n", [Bad]),
    io:format("delete_module unknown ~p~n", [erlang:delete_module(no_such_module_here)]),
    io:format("which erlang ~p~n", [code:which(erlang)]),
    io:format("preloaded has erlang ~p~n", [lists:member(erlang, erlang:pre_loaded())]),
    io:format("still tagged ~p~n", [M:version_tag()]),
    ok.

park(From) ->
    From ! {parked, self()},
    receive never -> ok end.
