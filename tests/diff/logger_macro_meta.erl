%% The ?LOG_* macros (location metadata: mfa, file, line) and process
%% metadata (logger:set_process_metadata/1, update_process_metadata/1).
-module(logger_macro_meta).
-include_lib("kernel/include/logger.hrl").
-export([main/0]).

main() ->
    ?LOG_ERROR("macro error ~p", [1]),
    ?LOG_ERROR(#{report => map}),
    ?LOG_WARNING("warning with meta", [], #{extra => yes}),
    ?LOG_INFO("info is dropped"),
    logger_sync:wait(),
    logger:set_process_metadata(#{request => 42}),
    logger:update_process_metadata(#{user => bob}),
    io:format("process metadata: ~p~n", [lists:sort(maps:to_list(logger:get_process_metadata()))]),
    ?LOG_ERROR("after process metadata"),
    logger:unset_process_metadata(),
    logger_sync:wait(),
    io:format("unset: ~p~n", [logger:get_process_metadata()]),
    logger_sync:wait(),
    io:format("done~n").
