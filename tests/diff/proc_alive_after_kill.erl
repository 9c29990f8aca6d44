-module(proc_alive_after_kill).
-export([main/0]).

%% is_process_alive/1 sees the effect of the caller's own earlier signals:
%% after exit(Pid, kill) it answers false at once, whatever the target was
%% doing.
main() ->
    Sleeper = spawn(fun() -> receive after 1000 -> ok end end),
    io:format("sleeper alive: ~p~n", [is_process_alive(Sleeper)]),
    exit(Sleeper, kill),
    io:format("sleeper after kill: ~p~n", [is_process_alive(Sleeper)]),

    Busy = spawn(fun() -> spin(0) end),
    io:format("busy alive: ~p~n", [is_process_alive(Busy)]),
    exit(Busy, kill),
    io:format("busy after kill: ~p~n", [is_process_alive(Busy)]),

    Self = self(),
    Trapper = spawn(fun() -> process_flag(trap_exit, true), Self ! trapping, receive stop -> ok end end),
    receive trapping -> ok end,
    exit(Trapper, shutdown),
    io:format("trapper after shutdown: ~p~n", [is_process_alive(Trapper)]),
    exit(Trapper, kill),
    io:format("trapper after kill: ~p~n", [is_process_alive(Trapper)]),

    Normal = spawn(fun() -> receive stop -> ok end end),
    exit(Normal, normal),
    io:format("normal signal: ~p~n", [is_process_alive(Normal)]),
    %% Monitored before it is told to stop: monitoring after the stop
    %% would race its end (noproc when it has already gone).
    Ref = monitor(process, Normal),
    Normal ! stop,
    receive {'DOWN', Ref, process, Normal, R} -> io:format("down: ~p~n", [R]) end,
    io:format("after stop: ~p~n", [is_process_alive(Normal)]),
    io:format("self: ~p~n", [is_process_alive(self())]).

spin(N) -> spin(N + 1).
