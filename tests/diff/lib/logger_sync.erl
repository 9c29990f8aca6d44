%% Waiting for the logger: wait/0 returns once every report logged so far
%% is written on standard output, so that a program's own output and the
%% reports come in one order on every runtime. A crash report of the
%% runtime itself (a process ending with an uncaught error) passes through
%% logger_proxy, the system logger; every event then reaches the default
%% handler, logger_std_h, whose filesync/1 answers once it has written what
%% it was given.
%%
%% A process that logs its own end (proc_lib's crash report, a
%% gen_server's `** Generic server` report) formats the report and hands it
%% to the handler before it ends, which may be after it has answered its
%% starter: wait_processes(N) waits until no more than N processes are
%% alive (N taken before starting it), then as wait/0.
-module(logger_sync).
-export([wait/0, wait_processes/1]).

wait() ->
    _ = sys:get_state(logger_proxy),
    ok = logger_std_h:filesync(default).

wait_processes(N) ->
    case length(processes()) > N of
        true ->
            receive after 5 -> ok end,
            wait_processes(N);
        false ->
            wait()
    end.
