-module(sched_procs).
%% Each case ends with exit(Result); the harness compares exit reasons.
-export([ping/0, ring/0, links/0, monitors/0, trap/0, timers/0, names/0,
         selective/0, dict/0, after_zero/0, many/0, spin/0, kill/0]).

ping() ->
    Self = self(),
    P = spawn(fun() -> receive {ping, From, N} -> From ! {pong, N + 1} end end),
    P ! {ping, Self, 41},
    R = receive {pong, V} -> V end,
    exit({done, R}).

ring() ->
    N = 100,
    First = lists:foldl(fun(_, Next) -> spawn(fun() -> relay(Next) end) end, self(), lists:seq(1, N)),
    First ! {token, 0},
    R = receive {token, C} -> C end,
    exit({ring, R}).

relay(Next) ->
    receive {token, C} -> Next ! {token, C + 1} end.

links() ->
    process_flag(trap_exit, true),
    P = spawn_link(fun() -> exit(boom) end),
    R1 = receive {'EXIT', P, Why} -> Why end,
    Q = spawn_link(fun() -> ok end),
    R2 = receive {'EXIT', Q, Why2} -> Why2 end,
    exit({links, R1, R2}).

monitors() ->
    {P, Ref} = spawn_monitor(fun() -> exit({shutdown, x}) end),
    R1 = receive {'DOWN', Ref, process, P, Why} -> Why end,
    Ref2 = monitor(process, list_to_pid("<0.9999.0>")),
    R2 = receive {'DOWN', Ref2, process, _, Why2} -> Why2 end,
    exit({monitors, R1, R2}).

trap() ->
    process_flag(trap_exit, true),
    P = spawn_link(fun() -> receive _ -> ok end end),
    exit(P, kill),
    R = receive {'EXIT', P, W} -> W end,
    exit({trap, R}).

timers() ->
    erlang:send_after(20, self(), later),
    T = erlang:start_timer(10, self(), tick),
    R1 = receive {timeout, T, tick} -> tick_ok end,
    R2 = receive later -> later_ok end,
    R3 = receive nothing -> no after 30 -> timed_out end,
    %% Cancelled right away: an hour is more than any loaded machine
    %% takes between the two calls (cancel_timer is false once it fired).
    Cancel = erlang:send_after(3600000, self(), never),
    C = is_integer(erlang:cancel_timer(Cancel)),
    exit({timers, R1, R2, R3, C}).

names() ->
    register(me, self()),
    me ! hello,
    R = receive hello -> whereis(me) =:= self() end,
    B = (catch nobody ! x),
    exit({names, R, element(1, B), whereis(nobody)}).

selective() ->
    self() ! a, self() ! b, self() ! c,
    R1 = receive c -> c end,
    R2 = receive X -> X end,
    R3 = receive Y -> Y end,
    exit({selective, R1, R2, R3}).

dict() ->
    undefined = put(k, 1),
    1 = put(k, 2),
    put(j, 3),
    V = get(k),
    E = erase(j),
    exit({dict, V, E, get(j), lists:sort(get_keys())}).

after_zero() ->
    R = receive x -> got after 0 -> empty end,
    exit({after_zero, R}).

many() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), I * I} end) || I <- lists:seq(1, 1000)],
    Sum = lists:sum([receive {P, V} -> V end || P <- Pids]),
    exit({many, Sum}).

%% A process spinning forever must not stop others from running.
spin() ->
    spawn(fun loop/0),
    spawn(fun loop/0),
    spawn(fun loop/0),
    Self = self(),
    spawn(fun() -> Self ! alive end),
    R = receive alive -> alive after 5000 -> starved end,
    exit({spin, R}).

loop() -> loop().

kill() ->
    P = spawn(fun loop/0),
    Ref = monitor(process, P),
    exit(P, kill),
    R = receive {'DOWN', Ref, process, P, W} -> W end,
    exit({kill, R, is_process_alive(P)}).
