%% beamr's `code_server': answers the requests OTP's code module sends the
%% process registered as code_server ({code_call, From, Request}, answered
%% with {code_server, Reply}) from beamr's own code path and loaded code,
%% through the natives that stand in for the code module's functions
%% (beamr-sched/src/bif/code/: ensure_loaded.rs, loading.rs). Both request shapes are
%% answered: OTP 25's ({add_path, Where, Dir}) and OTP 26's on, which add
%% a cache setting ({add_path, Where, Dir, Cache}). Any other request gets
%% {error, {notsup, Request}}.
%%
%% Compiled into beamr_code_server.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_code_server.erl
-module(beamr_code_server).
-export([start/0]).

%% beamr registers the process as `code_server' before it first runs.
start() ->
    loop().

loop() ->
    receive
        {code_call, From, Request} when is_pid(From) ->
            From ! {code_server, answer(Request)},
            loop();
        _Other ->
            loop()
    end.

answer(get_path) -> code:get_path();
answer({add_path, Where, Dir}) -> add_path(Where, Dir);
answer({add_path, Where, Dir, _Cache}) -> add_path(Where, Dir);
answer({add_paths, Where, Dirs}) -> add_paths(Where, Dirs);
answer({add_paths, Where, Dirs, _Cache}) -> add_paths(Where, Dirs);
answer({is_loaded, Module}) -> code:is_loaded(Module);
answer(all_loaded) -> code:all_loaded();
answer({ensure_loaded, Module}) -> code:ensure_loaded(Module);
answer({load_file, Module}) -> code:load_file(Module);
answer({delete, Module}) -> code:delete(Module);
answer({purge, Module}) -> code:purge(Module);
answer({soft_purge, Module}) -> code:soft_purge(Module);
answer({get_object_code, Module}) -> code:get_object_code(Module);
answer({is_sticky, Module}) -> code:is_sticky(Module);
answer({dir, root_dir}) -> code:root_dir();
answer({dir, lib_dir}) -> code:lib_dir();
answer({dir, {lib_dir, App}}) -> code:lib_dir(App);
answer({dir, {priv_dir, App}}) -> code:priv_dir(App);
answer(get_mode) -> code:get_mode();
answer({where_is_file, File}) -> where_is_file(code:get_path(), File);
answer(Request) -> {error, {notsup, Request}}.

add_path(first, Dir) -> code:add_patha(Dir);
add_path(last, Dir) -> code:add_pathz(Dir).

add_paths(first, Dirs) -> code:add_pathsa(Dirs);
add_paths(last, Dirs) -> code:add_pathsz(Dirs).

where_is_file([], _File) ->
    non_existing;
where_is_file([Dir | Dirs], File) ->
    Full = filename:join(Dir, File),
    case file:read_file_info(Full) of
        {ok, _} -> Full;
        _ -> where_is_file(Dirs, File)
    end.
