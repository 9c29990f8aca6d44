%% A logger_std_h handler writing to a file with its own formatter
%% (single_line, template), its level set later, its configuration read
%% back; adding a handler whose module has no log/2, and a bad primary
%% level. The default handler prints the events too, from its own
%% process: logger_sync:wait/0 keeps its lines ahead of ours.
-module(logger_std_h_file).
-export([main/0]).
main() ->
    F = "logger_std_h_file_" ++ os:getpid() ++ ".log",
    ok = logger:add_handler(fh, logger_std_h, #{config => #{file => F, filesync_repeat_interval => no_repeat}, formatter => {logger_formatter, #{single_line => true, template => [level, " ", msg, "\n"]}}}),
    logger:warning("to the file ~p", [42]),
    logger:error(#{what => report, n => 1}),
    logger:info("filtered out"),
    ok = logger_std_h:filesync(fh),
    logger_sync:wait(),
    {ok, C} = file:read_file(F),
    io:format("~s", [C]),
    {ok, Cfg} = logger:get_handler_config(fh),
    io:format("~p~n", [lists:sort(maps:keys(Cfg))]),
    io:format("~p~n", [maps:with([level, filter_default, module], Cfg)]),
    ok = logger:set_handler_config(fh, level, error),
    logger:warning("dropped"),
    logger:error("kept"),
    ok = logger_std_h:filesync(fh),
    logger_sync:wait(),
    {ok, C2} = file:read_file(F),
    io:format("~s", [C2]),
    ok = logger:remove_handler(fh),
    file:delete(F),
    io:format("~p~n", [logger:add_handler(fh2, no_such_module, #{})]),
    io:format("~p~n", [catch logger:set_primary_config(level, bogus)]),
    ok.
