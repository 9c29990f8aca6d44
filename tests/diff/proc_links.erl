%% Links: exit signals through links, normal exits not propagating,
%% link/unlink, and links to dead processes.
-module(proc_links).
-export([main/0]).

main() ->
    process_flag(trap_exit, true),
    P1 = spawn_link(fun() -> exit(boom) end),
    receive {'EXIT', P1, R1} -> io:format("linked exit: ~p~n", [R1]) end,
    P2 = spawn_link(fun() -> ok end),
    receive {'EXIT', P2, R2} -> io:format("linked normal: ~p~n", [R2]) end,
    %% A chain: A links B; B dies; A (not trapping) dies with the same reason.
    Self = self(),
    A = spawn_link(fun() ->
                          B = spawn_link(fun() -> receive go -> exit(chain) end end),
                          Self ! {b, B},
                          receive after infinity -> ok end
                  end),
    B = receive {b, Bp} -> Bp end,
    B ! go,
    receive {'EXIT', A, RA} -> io:format("chain: ~p~n", [RA]) end,
    io:format("b alive: ~p~n", [is_process_alive(B)]),
    %% A normal exit does not kill a linked non-trapping process.
    C = spawn(fun() ->
                      D = spawn_link(fun() -> ok end),
                      _ = D,
                      receive after 30 -> Self ! {c, survived} end
              end),
    receive {c, S} -> io:format("c ~p (~p)~n", [S, is_pid(C)]) end,
    %% unlink: no EXIT after unlinking.
    E = spawn_link(fun() -> receive die -> exit(unlinked) end end),
    true = unlink(E),
    E ! die,
    receive {'EXIT', E, _} -> io:format("unexpected EXIT~n") after 50 -> io:format("unlinked: no EXIT~n") end,
    %% link to a dead process while trapping: EXIT noproc.
    F = spawn(fun() -> ok end),
    Ref = monitor(process, F),
    receive {'DOWN', Ref, process, F, _} -> ok end,
    true = link(F),
    receive {'EXIT', F, RF} -> io:format("link dead: ~p~n", [RF]) end,
    %% link to a dead process without trapping: error noproc.
    process_flag(trap_exit, false),
    R = try link(F) catch error:Err -> {error, Err} end,
    io:format("link dead, no trap: ~p~n", [R]),
    %% links list
    G = spawn_link(fun() -> receive stop -> ok end end),
    {links, Ls} = process_info(self(), links),
    io:format("links has G: ~p~n", [lists:member(G, Ls)]),
    unlink(G),
    G ! stop,
    io:format("link self: ~p~n", [link(self())]),
    io:format("link badarg: ~p~n", [err(fun() -> link(foo) end)]).

%% The class and reason of an exception, or the value (no stack traces).
err(F) ->
    try F() catch C:R -> {C, R} end.
