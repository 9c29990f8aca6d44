%% Monitors: DOWN messages with reasons, noproc, demonitor and flush,
%% monitoring registered names, multiple monitors.
-module(proc_monitors).
-export([main/0]).

main() ->
    {P1, R1} = spawn_monitor(fun() -> exit(reason1) end),
    receive {'DOWN', R1, process, P1, W1} -> io:format("down: ~p~n", [W1]) end,
    {P2, R2} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', R2, process, P2, W2} -> io:format("down: ~p~n", [W2]) end,
    %% Monitoring a dead process: noproc.
    R3 = monitor(process, P1),
    receive {'DOWN', R3, process, P1, W3} -> io:format("dead: ~p~n", [W3]) end,
    %% Monitoring an unregistered name: noproc with {Name, Node}.
    R4 = monitor(process, no_such_name),
    receive {'DOWN', R4, process, Obj, W4} -> io:format("name: ~p ~p~n", [Obj, W4]) end,
    %% Monitoring a registered process by name.
    P5 = spawn(fun() -> receive stop -> exit(by_name) end end),
    register(watched, P5),
    R5 = monitor(process, watched),
    P5 ! stop,
    receive {'DOWN', R5, process, Obj5, W5} -> io:format("registered: ~p ~p~n", [Obj5, W5]) end,
    %% demonitor: no DOWN afterwards.
    P6 = spawn(fun() -> receive stop -> ok end end),
    R6 = monitor(process, P6),
    true = demonitor(R6),
    P6 ! stop,
    receive {'DOWN', R6, _, _, _} -> io:format("unexpected~n") after 50 -> io:format("demonitored~n") end,
    %% demonitor with flush removes a DOWN already delivered.
    {P7, R7} = spawn_monitor(fun() -> ok end),
    wait_dead(P7),
    timer:sleep(20),
    io:format("flush: ~p~n", [demonitor(R7, [flush])]),
    receive {'DOWN', R7, _, _, _} -> io:format("unexpected~n") after 0 -> io:format("flushed~n") end,
    %% demonitor info
    P8 = spawn(fun() -> receive stop -> ok end end),
    R8 = monitor(process, P8),
    io:format("info: ~p~n", [demonitor(R8, [info])]),
    io:format("info again: ~p~n", [demonitor(R8, [info])]),
    P8 ! stop,
    %% Two monitors on one process: two DOWNs.
    P9 = spawn(fun() -> receive stop -> exit(twice) end end),
    Ra = monitor(process, P9),
    Rb = monitor(process, P9),
    P9 ! stop,
    Got = [receive {'DOWN', R, process, P9, W} -> W end || R <- [Rb, Ra]],
    io:format("two: ~p ~p~n", [Got, Ra =/= Rb]),
    %% monitor self
    Rs = monitor(process, self()),
    io:format("self monitor ref: ~p~n", [is_reference(Rs)]),
    demonitor(Rs),
    %% process_info(monitors): by pid and by name; a fired monitor is gone.
    P10 = spawn(fun() -> receive stop -> ok end end),
    register(named_target, P10),
    R10 = monitor(process, named_target),
    R11 = monitor(process, P10),
    {monitors, Ms} = process_info(self(), monitors),
    io:format("monitors: ~p ~p~n",
              [lists:member({process, {named_target, node()}}, Ms), lists:member({process, P10}, Ms)]),
    P10 ! stop,
    receive {'DOWN', R10, process, _, normal} -> ok end,
    receive {'DOWN', R11, process, _, normal} -> ok end,
    io:format("after DOWN: ~p ~p~n", [process_info(self(), monitors), demonitor(R11, [info])]),
    io:format("badarg: ~p~n", [err(fun() -> monitor(process, 42) end)]),
    io:format("badarg: ~p~n", [err(fun() -> monitor(foo, self()) end)]).

wait_dead(P) ->
    case is_process_alive(P) of
        true -> timer:sleep(1), wait_dead(P);
        false -> ok
    end.

%% The class and reason of an exception, or the value (no stack traces).
err(F) ->
    try F() catch C:R -> {C, R} end.
