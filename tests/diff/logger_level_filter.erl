%% logger:set_primary_config(level, L) filters events; handler levels,
%% module levels and primary filters do too.
-module(logger_level_filter).
-include_lib("kernel/include/logger.hrl").
-export([main/0]).

main() ->
    #{level := L0} = logger:get_primary_config(),
    io:format("primary level: ~p~n", [L0]),
    ok = logger:set_primary_config(level, error),
    logger:warning("warning is dropped"),
    logger:error("error passes"),
    ok = logger:set_primary_config(level, debug),
    logger:info("info passes at debug"),
    logger_sync:wait(),
    io:format("allow: ~p ~p~n", [logger:allow(debug, ?MODULE), logger:allow(info, ?MODULE)]),
    ok = logger:set_handler_config(default, level, critical),
    logger:error("error dropped by the handler level"),
    logger:critical("critical passes the handler"),
    ok = logger:set_handler_config(default, level, all),
    ok = logger:set_module_level(?MODULE, emergency),
    ?LOG_ALERT("alert dropped by the module level"),
    logger:alert("alert without a location passes the module level"),
    ok = logger:unset_module_level(?MODULE),
    ok = logger:add_primary_filter(no_secret,
                                   {fun(#{msg := {string, "secret"}}, _) -> stop; (_, _) -> ignore end, []}),
    logger:error("secret"),
    logger:error("public"),
    ok = logger:remove_primary_filter(no_secret),
    ok = logger:set_primary_config(level, none),
    logger:emergency("nothing passes none"),
    logger_sync:wait(),
    io:format("bad level: ~p~n", [logger:set_primary_config(level, loud)]),
    io:format("bad key: ~p~n", [logger:set_primary_config(colour, red)]),
    ok = logger:set_primary_config(level, notice),
    logger:error("back on"),
    logger_sync:wait(),
    io:format("done~n").
