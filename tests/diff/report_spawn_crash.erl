%% A process started with spawn/1,3 that ends with an uncaught error or
%% throw makes the runtime log `Error in process ... with exit value:`; an
%% exit does not, nor does a crash in a process that catches it. erts
%% queues its report after the process is gone: wait/1 gives it time.
-module(report_spawn_crash).
-export([main/0, crash/1]).

main() ->
    wait(spawn_monitor(fun() -> error(boom) end)),
    wait(spawn_monitor(fun() -> throw(ball) end)),
    wait(spawn_monitor(fun() -> exit(quietly) end)),
    wait(spawn_monitor(?MODULE, crash, [badarith])),
    wait(spawn_monitor(?MODULE, crash, [badmatch])),
    wait(spawn_monitor(?MODULE, crash, [function_clause])),
    wait(spawn_monitor(no_such_module, f, [])),
    wait(spawn_monitor(fun() -> catch error(caught), ok end)),
    io:format("done~n").

crash(badarith) -> 1 / zero();
crash(badmatch) -> 1 = one() + 1;
crash(function_clause) -> clause(b).

zero() -> 0.
one() -> 1.
clause(a) -> a.

wait({Pid, Ref}) ->
    receive
        {'DOWN', Ref, process, Pid, Reason} ->
            %% erts hands its report to the system logger on its own time,
            %% after the process is gone (50 ms was not always enough for
            %% erl itself on a loaded machine).
            timer:sleep(250),
            logger_sync:wait(),
            io:format("down: ~p~n", [element(1, reason(Reason))])
    end.

reason({R, Trace}) when is_list(Trace) -> {R};
reason(R) -> {R}.
