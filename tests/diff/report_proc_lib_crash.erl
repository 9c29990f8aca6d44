%% proc_lib processes that crash print a crash report (initial call, pid,
%% exception, ancestors, messages, links, dictionary, ...); an exit with
%% normal, shutdown or {shutdown, _} does not.
-module(report_proc_lib_crash).
-export([main/0, worker/1]).

main() ->
    wait(proc_lib:spawn(fun() -> exit(bad) end)),
    wait(proc_lib:spawn(?MODULE, worker, [error])),
    wait(proc_lib:spawn(?MODULE, worker, [throw])),
    wait(proc_lib:spawn(?MODULE, worker, [messages])),
    wait(proc_lib:spawn(?MODULE, worker, [shutdown])),
    wait(proc_lib:spawn(?MODULE, worker, [{shutdown, why}])),
    wait(proc_lib:spawn(?MODULE, worker, [normal])),
    process_flag(trap_exit, true),
    P = proc_lib:spawn_link(?MODULE, worker, [dictionary]),
    receive {'EXIT', P, R} -> logger_sync:wait(), io:format("linked exit: ~p~n", [R]) end,
    io:format("done~n").

worker(error) -> error({bad, thing});
worker(throw) -> throw(up);
worker(messages) ->
    self() ! first,
    self() ! {second, [1, 2]},
    exit(with_messages);
worker(dictionary) ->
    put(key, value),
    exit(with_dictionary);
worker(Reason) -> exit(Reason).

wait(Pid) ->
    Ref = monitor(process, Pid),
    receive
        {'DOWN', Ref, process, Pid, _} ->
            logger_sync:wait(),
            io:format("down~n")
    end.
