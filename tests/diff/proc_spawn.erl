%% spawn variants, process identity, is_process_alive, spawn of undefined
%% functions (with their error reports), and a ring of processes.
-module(proc_spawn).
-export([main/0, child/2, ring_node/1]).

main() ->
    logger_sync:watch(),
    Self = self(),
    P = spawn(?MODULE, child, [Self, 21]),
    receive {result, V} -> io:format("spawn/3: ~p~n", [V]) end,
    P2 = spawn(fun() -> Self ! {fun_result, self()} end),
    receive {fun_result, P2} -> io:format("spawn/1 pid matches~n") end,
    io:format("pid is_pid: ~p ~p~n", [is_pid(P), is_pid(self())]),
    PRef = monitor(process, P),
    receive {'DOWN', PRef, process, P, _} -> ok end,
    io:format("alive: ~p ~p~n", [is_process_alive(P), is_process_alive(self())]),
    %% spawn_link / spawn_monitor / spawn_opt
    process_flag(trap_exit, true),
    L = spawn_link(?MODULE, child, [Self, 1]),
    receive {result, 2} -> ok end,
    receive {'EXIT', L, normal} -> io:format("spawn_link exit normal~n") end,
    {M, MRef} = spawn_monitor(?MODULE, child, [Self, 2]),
    receive {result, 4} -> ok end,
    receive {'DOWN', MRef, process, M, normal} -> io:format("spawn_monitor down~n") end,
    {O, ORef} = spawn_opt(fun() -> exit(opt) end, [monitor, link]),
    receive {'DOWN', ORef, process, O, opt} -> io:format("spawn_opt monitor~n") end,
    receive {'EXIT', O, opt} -> io:format("spawn_opt link~n") end,
    %% Spawning an undefined function: the process exits with undef.
    {U, URef} = spawn_monitor(?MODULE, no_such_function, [a]),
    receive {'DOWN', URef, process, U, {undef, [{?MODULE, no_such_function, [a], _} | _]}} ->
            logger_sync:logged(),
            io:format("undef reason~n")
    end,
    {U2, URef2} = spawn_monitor(no_such_module, f, []),
    receive {'DOWN', URef2, process, U2, {undef, [MFA | _]}} ->
            logger_sync:logged(),
            io:format("undef module: ~p~n", [MFA])
    end,
    io:format("badarg: ~p~n", [err(fun() -> spawn(1, 2, 3) end)]),
    io:format("badarg: ~p~n", [err(fun() -> spawn(?MODULE, child, not_a_list) end)]),
    %% A ring of 200 processes passing a counter around 3 times.
    First = lists:foldl(fun(_, Next) -> spawn(?MODULE, ring_node, [Next]) end, Self, lists:seq(1, 200)),
    First ! {count, 0},
    Count = ring(First, 3),
    io:format("ring: ~p~n", [Count]),
    %% Many short-lived processes.
    Ps = [spawn_monitor(fun() -> exit({done, I}) end) || I <- lists:seq(1, 500)],
    Sum = lists:sum([receive {'DOWN', R, process, Pid, {done, I}} -> I end || {Pid, R} <- Ps]),
    io:format("sum: ~p~n", [Sum]).

child(Parent, N) -> Parent ! {result, N * 2}.

ring_node(Next) ->
    receive
        {count, N} -> Next ! {count, N + 1}, ring_node(Next);
        stop -> Next ! stop
    end.

ring(First, 1) ->
    receive {count, N} -> First ! stop, receive stop -> N end end;
ring(First, K) ->
    receive {count, N} -> First ! {count, N}, ring(First, K - 1) end.

%% The class and reason of an exception, or the value (no stack traces).
err(F) ->
    try F() catch C:R -> {C, R} end.
