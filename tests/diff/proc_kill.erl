%% kill and killed: kill through exit/2, 'killed' propagating through links,
%% a killed trapping process, exit(kill) from inside.
-module(proc_kill).
-export([main/0]).

main() ->
    process_flag(trap_exit, true),
    P = spawn_link(fun() -> process_flag(trap_exit, true), receive after infinity -> ok end end),
    exit(P, kill),
    receive {'EXIT', P, R1} -> io:format("kill trapping: ~p~n", [R1]) end,
    %% A process that exits with reason kill itself: linked see 'kill'.
    Q = spawn_link(fun() -> exit(kill) end),
    receive {'EXIT', Q, R2} -> io:format("exit(kill) seen as: ~p~n", [R2]) end,
    %% A linked chain where the middle process is killed: the outer sees killed.
    Self = self(),
    Outer = spawn_link(fun() ->
                              process_flag(trap_exit, true),
                              Inner = spawn_link(fun() -> receive after infinity -> ok end end),
                              Self ! {inner, Inner},
                              receive {'EXIT', Inner, W} -> Self ! {outer_saw, W} end
                      end),
    Inner = receive {inner, I} -> I end,
    exit(Inner, kill),
    receive {outer_saw, W} -> io:format("outer saw: ~p~n", [W]) end,
    receive {'EXIT', Outer, normal} -> io:format("outer normal~n") end,
    %% Non-trapping linked process dies when its link partner exits with 'kill'
    %% reason (the signal is 'kill' but not untrappable: it becomes killed? no).
    Mid = spawn_link(fun() ->
                            Leaf = spawn_link(fun() -> receive go -> exit(kill) end end),
                            Self ! {leaf, Leaf},
                            receive after infinity -> ok end
                    end),
    Leaf = receive {leaf, L} -> L end,
    Leaf ! go,
    receive {'EXIT', Mid, R3} -> io:format("mid died: ~p~n", [R3]) end,
    %% Monitors see killed.
    {M, Ref} = spawn_monitor(fun() -> receive after infinity -> ok end end),
    exit(M, kill),
    receive {'DOWN', Ref, process, M, R4} -> io:format("monitor: ~p~n", [R4]) end,
    io:format("done~n").
