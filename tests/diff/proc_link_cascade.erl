%% A chain of linked processes: killing one end takes down the whole
%% chain; a trapping process in the middle stops the cascade.
-module(proc_link_cascade).
-export([main/0]).

main() ->
    process_flag(trap_exit, true),
    Self = self(),
    %% Chain of 100: main - p1 - p2 - ... - p100.
    First = spawn_link(fun() -> chain(100, Self) end),
    Last = receive {last, L} -> L end,
    exit(Last, boom),
    receive {'EXIT', First, R} -> io:format("chain end: ~p~n", [R]) end,
    %% Chain with a trapping member at depth 5: it stops the cascade.
    First2 = spawn_link(fun() -> chain_trap(10, 5, Self) end),
    Last2 = receive {last, L2} -> L2 end,
    exit(Last2, boom),
    receive {trapped, Depth, Why} -> io:format("trapped at ~p: ~p~n", [Depth, Why]) end,
    receive {'EXIT', First2, R2} -> io:format("unexpected ~p~n", [R2]) after 50 -> io:format("first still alive: ~p~n", [is_process_alive(First2)]) end,
    exit(First2, kill),
    receive {'EXIT', First2, R3} -> io:format("killed: ~p~n", [R3]) end.

chain(1, Top) ->
    Top ! {last, self()},
    receive after infinity -> ok end;
chain(N, Top) ->
    spawn_link(fun() -> chain(N - 1, Top) end),
    receive after infinity -> ok end.

chain_trap(1, _, Top) ->
    Top ! {last, self()},
    receive after infinity -> ok end;
chain_trap(N, N, Top) ->
    process_flag(trap_exit, true),
    spawn_link(fun() -> chain_trap(N - 1, N, Top) end),
    receive {'EXIT', _, Why} -> Top ! {trapped, N, Why} end,
    receive after infinity -> ok end;
chain_trap(N, T, Top) ->
    spawn_link(fun() -> chain_trap(N - 1, T, Top) end),
    receive after infinity -> ok end.
