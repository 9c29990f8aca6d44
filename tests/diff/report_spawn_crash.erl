%% A process started with spawn/1,3 that ends with an uncaught error or
%% throw makes the runtime log `Error in process ... with exit value:`; an
%% exit does not, nor does a crash in a process that catches it. erts
%% queues its report after the process is gone: wait/2 waits for it to be
%% logged (logger_sync:logged/0), or gives one that should not come time.
-module(report_spawn_crash).
-export([main/0, crash/1]).

main() ->
    logger_sync:watch(),
    wait(spawn_monitor(fun() -> error(boom) end), logged),
    wait(spawn_monitor(fun() -> throw(ball) end), logged),
    wait(spawn_monitor(fun() -> exit(quietly) end), quiet),
    wait(spawn_monitor(?MODULE, crash, [badarith]), logged),
    wait(spawn_monitor(?MODULE, crash, [badmatch]), logged),
    wait(spawn_monitor(?MODULE, crash, [function_clause]), logged),
    wait(spawn_monitor(no_such_module, f, []), logged),
    wait(spawn_monitor(fun() -> catch error(caught), ok end), quiet),
    io:format("done~n").

crash(badarith) -> 1 / zero();
crash(badmatch) -> 1 = one() + 1;
crash(function_clause) -> clause(b).

zero() -> 0.
one() -> 1.
clause(a) -> a.

wait({Pid, Ref}, Logged) ->
    receive
        {'DOWN', Ref, process, Pid, Reason} ->
            %% erts hands its report to the system logger on its own time,
            %% after the process is gone: wait until it is written. Where
            %% none should come, 250 ms gives a wrong one time to show.
            case Logged of
                logged -> logger_sync:logged();
                quiet -> timer:sleep(250), logger_sync:wait()
            end,
            io:format("down: ~p~n", [element(1, reason(Reason))])
    end.

reason({R, Trace}) when is_list(Trace) -> {R};
reason(R) -> {R}.
