%% logger:add_handler/3 with a handler module defined here: adding_handler,
%% log, changing_config, removing_handler; its own formatter call; handler
%% ids, configs and errors.
-module(logger_custom_handler).
-export([main/0, adding_handler/1, changing_config/3, removing_handler/1, log/2]).

main() ->
    ok = logger:add_handler(mine, ?MODULE, #{level => warning, config => #{prefix => "MINE"}}),
    io:format("ids: ~p~n", [lists:sort(logger:get_handler_ids())]),
    {ok, #{level := Lvl, module := Mod}} = logger:get_handler_config(mine),
    io:format("config: ~p ~p~n", [Lvl, Mod]),
    logger:error("to both ~p", [1]),
    logger:notice("only the default handler"),
    logger_sync:wait(),
    ok = logger:remove_handler(default),
    logger:warning(#{report => only_mine}),
    ok = logger:set_handler_config(mine, config, #{prefix => "NEW"}),
    logger:error("after reconfig"),
    io:format("again: ~p~n", [logger:add_handler(mine, ?MODULE, #{})]),
    io:format("bad module: ~p~n", [logger:add_handler(other, no_such_module, #{})]),
    io:format("missing: ~p~n", [logger:remove_handler(nope)]),
    ok = logger:remove_handler(mine),
    io:format("ids: ~p~n", [logger:get_handler_ids()]),
    io:format("done~n").

adding_handler(Config) ->
    io:format("adding_handler ~p~n", [maps:get(id, Config)]),
    {ok, Config}.

changing_config(_SetOrUpdate, _Old, New) ->
    io:format("changing_config ~p~n", [maps:get(config, New)]),
    {ok, New}.

removing_handler(Config) ->
    io:format("removing_handler ~p~n", [maps:get(id, Config)]),
    ok.

log(#{level := Level, msg := Msg}, #{config := #{prefix := Prefix}}) ->
    io:format("~s ~p ~p~n", [Prefix, Level, Msg]).
