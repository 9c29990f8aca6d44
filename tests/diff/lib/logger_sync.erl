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
%%
%% What the runtime logs on its own time (a crashed process's `Error in
%% process`, a port's bad output, a module that does not load) is awaited
%% by watch/0, once, then logged/0 for each report: watch/0 adds a handler
%% that tells the caller of every event; logged/0 waits for the next one,
%% then as wait/0.
-module(logger_sync).
-export([wait/0, wait_processes/1, watch/0, logged/0, log/2, say/1, say/2]).

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

%% io:format/2 after the reports logged so far, so a program's lines
%% and the reports before them come in one order (a supervisor logs a
%% child's end before it restarts it, and its own before it exits).
say(Format) -> say(Format, []).

say(Format, Args) ->
    wait(),
    io:format(Format, Args).

watch() ->
    ok = logger:add_handler(logger_sync_watch, ?MODULE, #{config => self()}).

%% A report comes in milliseconds; the timeout only ends a run where none
%% came (saying so), long for a loaded machine.
logged() ->
    receive
        logger_sync_logged -> wait()
    after 30000 ->
        io:format("logger_sync: nothing logged~n")
    end.

%% The watching handler: runs in the logging process.
log(_Event, #{config := Watcher}) ->
    Watcher ! logger_sync_logged,
    ok.
