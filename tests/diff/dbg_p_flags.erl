%% dbg:p/2 with several flag sets: m, s, r, p (spawn, link, exit,
%% register), c with a global tp, sos and sol (children and linked
%% processes traced too), new and all; what dbg:p answers, and the trace
%% as dbg's default handler prints it, pids named by order of appearance.
-module(dbg_p_flags).
-export([main/0, loop/0, work/1]).

loop() ->
    receive
        {ping, From} -> From ! pong, loop();
        {spawn, From} ->
            C = spawn(?MODULE, loop, []),
            From ! {child, C},
            loop();
        {link, Q, From} -> link(Q), From ! linked, loop();
        {register, Name, From} -> register(Name, self()), From ! registered, loop();
        {work, N, From} -> From ! {worked, ?MODULE:work(N)}, loop();
        stop -> ok
    end.

work(N) -> N * 2.

ask(P, Req) ->
    P ! Req,
    %% The answer comes at once; the timeout only ends a run where it did not.
    receive R when R =/= Req -> R after 30000 -> timeout end.

session(Flags, Fun) ->
    Dev = dbg_capture:device(),
    {ok, _} = dbg:tracer(process, dbg_capture:handler(Dev)),
    P = spawn(?MODULE, loop, []),
    io:format("~p: ~p~n", [Flags, dbg:p(P, Flags)]),
    Fun(P),
    dbg_capture:sync(),
    dbg_capture:print(Dev),
    P ! stop,
    dbg:stop_clear().

main() ->
    session(m, fun(P) -> pong = ask(P, {ping, self()}) end),
    session([s], fun(P) -> pong = ask(P, {ping, self()}) end),
    session([r], fun(P) -> pong = ask(P, {ping, self()}) end),
    session([p], fun(P) ->
        {child, C} = ask(P, {spawn, self()}),
        linked = ask(P, {link, C, self()}),
        registered = ask(P, {register, dbg_p_flags_name, self()})
    end),
    session([c], fun(P) ->
        io:format("tp: ~p~n", [dbg:tp(?MODULE, work, [])]),
        {worked, 6} = ask(P, {work, 3, self()})
    end),
    session([sos, s], fun(P) ->
        {child, C} = ask(P, {spawn, self()}),
        pong = ask(C, {ping, self()}),
        C ! stop
    end),
    session([sol, s], fun(P) ->
        Q = spawn(?MODULE, loop, []),
        linked = ask(P, {link, Q, self()}),
        pong = ask(Q, {ping, self()}),
        Q ! stop
    end),
    %% new: only processes spawned afterwards.
    Dev = dbg_capture:device(),
    {ok, _} = dbg:tracer(process, dbg_capture:handler(Dev)),
    Old = spawn(?MODULE, loop, []),
    io:format("new: ~p~n", [dbg:p(new, [s])]),
    New = spawn(?MODULE, loop, []),
    pong = ask(Old, {ping, self()}),
    pong = ask(New, {ping, self()}),
    dbg_capture:sync(),
    dbg_capture:print(Dev),
    {ok, [{matched, _, All}]} = dbg:p(all, [clear]),
    io:format("all clear matched some: ~p~n", [All > 0]),
    [P ! stop || P <- [Old, New]],
    dbg:stop_clear(),
    io:format("done~n").
