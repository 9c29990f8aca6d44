%% Waiting for the logger: wait/0 returns once every report logged so far
%% is written on standard output, so that a program's own output and the
%% reports come in one order on every runtime. A crash report of the
%% runtime itself (a process ending with an uncaught error) passes through
%% logger_proxy, the system logger; every event then reaches the default
%% handler, logger_std_h, whose filesync/1 answers once it has written what
%% it was given.
-module(logger_sync).
-export([wait/0]).

wait() ->
    _ = sys:get_state(logger_proxy),
    ok = logger_std_h:filesync(default).
