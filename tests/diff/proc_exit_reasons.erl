%% Exit reasons seen through monitors: exit/1 with any term, errors and
%% throws in a process (reason with stack trace), normal return.
-module(proc_exit_reasons).
-export([main/0]).

main() ->
    Cases = [fun() -> exit(normal) end,
             fun() -> exit(shutdown) end,
             fun() -> exit({shutdown, detail}) end,
             fun() -> exit([1, 2, 3]) end,
             fun() -> exit(<<"bin">>) end,
             fun() -> exit({nested, {deep, [tuple]}}) end,
             fun() -> ok end],
    [begin
         {P, R} = spawn_monitor(F),
         receive {'DOWN', R, process, P, Why} -> io:format("~p~n", [Why]) end
     end || F <- Cases],
    %% Error and throw reasons carry a stack trace: print only its shape.
    %% The runtime's error report comes after the process is gone: wait
    %% for it to be logged, not for a fixed time.
    logger_sync:watch(),
    {P1, R1} = spawn_monitor(fun() -> process_flag(trap_exit, true), erlang:error(oops) end),
    receive {'DOWN', R1, process, P1, {oops, Trace}} ->
            logger_sync:logged(),
            io:format("error: oops, trace is a list: ~p~n", [is_list(Trace)])
    end,
    %% exit/2 from another process with a reason.
    P2 = spawn(fun() -> receive after infinity -> ok end end),
    R2 = monitor(process, P2),
    exit(P2, {custom, 1}),
    receive {'DOWN', R2, process, P2, W2} -> io:format("exit/2: ~p~n", [W2]) end,
    %% noproc for a monitor of an already dead process
    R3 = monitor(process, P2),
    receive {'DOWN', R3, process, P2, W3} -> io:format("dead: ~p~n", [W3]) end,
    %% exit/2 to a dead process is fine.
    io:format("exit dead: ~p~n", [exit(P2, whatever)]),
    %% Catching exit/1 in the same process.
    io:format("caught: ~p~n", [catch exit(caught)]),
    io:format("try: ~p~n", [try exit({a, b}) catch exit:E -> {exit, E} end]).
