%% dbg:tp/2,3,4 (global patterns on exported functions, [] and x for
%% return and exception traces) and dbg:ctp/1,2,3, with call tracing set
%% by dbg:p(Pid, c); the calls as dbg's default handler prints them.
%% (dbg:ctp/1 of a whole module is left out: it clears local patterns too,
%% and counts the module's local functions.)
-module(dbg_tp_ctp).
-export([main/0, loop/0, double/1, half/1, fail/1]).

loop() ->
    receive
        {call, double, A, From} -> From ! {result, catch ?MODULE:double(A)}, loop();
        {call, half, A, From} -> From ! {result, catch ?MODULE:half(A)}, loop();
        {call, fail, A, From} -> From ! {result, catch ?MODULE:fail(A)}, loop();
        stop -> ok
    end.

double(N) -> N * 2.
half(N) -> N div 2.
fail(N) -> error({failed, N}).

call(P, F, A) ->
    P ! {call, F, A, self()},
    receive {result, R} -> R end.

main() ->
    Dev = dbg_capture:device(),
    {ok, _} = dbg:tracer(process, dbg_capture:handler(Dev)),
    P = spawn(?MODULE, loop, []),
    {ok, _} = dbg:p(P, c),
    io:format("~p~n", [dbg:tp(?MODULE, [])]),
    io:format("~p~n", [dbg:tp(?MODULE, double, [])]),
    io:format("~p~n", [dbg:tp(?MODULE, half, 1, x)]),
    io:format("~p~n", [dbg:tp({?MODULE, fail, 1}, x)]),
    4 = call(P, double, 2),
    2 = call(P, half, 4),
    {'EXIT', {{failed, 1}, _}} = call(P, fail, 1),
    dbg_capture:sync(),
    dbg_capture:print(Dev),
    io:format("~p~n", [dbg:ctp(?MODULE, half, 1)]),
    io:format("~p~n", [dbg:ctp(?MODULE, double)]),
    6 = call(P, double, 3),
    3 = call(P, half, 6),
    dbg_capture:sync(),
    dbg_capture:print(Dev),
    io:format("~p~n", [dbg:ctp({?MODULE, fail, 1})]),
    io:format("~p~n", [dbg:ctp(?MODULE, double, 1)]),
    8 = call(P, double, 4),
    dbg_capture:sync(),
    dbg_capture:print(Dev),
    P ! stop,
    dbg:stop_clear(),
    io:format("done~n").
