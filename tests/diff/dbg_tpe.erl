%% dbg:tpe/2 and dbg:ctpe/1: message patterns set through dbg (on OTP 27
%% and later, in dbg's own trace session), with dbg:p(P, [s, r]); the
%% events as dbg's default handler prints them.
-module(dbg_tpe).
-export([main/0, loop/0]).

loop() ->
    receive
        {ping, N, From} -> From ! {pong, N}, loop();
        stop -> ok
    end.

ask(P, N) ->
    P ! {ping, N, self()},
    receive {pong, N} -> ok end.

main() ->
    Dev = dbg_capture:device(),
    {ok, _} = dbg:tracer(process, dbg_capture:handler(Dev)),
    P = dbg_capture:spawn_wide(?MODULE, loop, []),
    {ok, _} = dbg:p(P, [s, r]),
    io:format("~p~n", [dbg:tpe(send, [{['_', {pong, 2}], [], []}])]),
    io:format("~p~n", [dbg:tpe('receive', [{['_', '_', {ping, '$1', '_'}], [{'>', '$1', 1}], []}])]),
    [ask(P, N) || N <- [1, 2, 3]],
    dbg_capture:sync(),
    io:format("-- patterns~n"),
    dbg_capture:print(Dev),
    io:format("~p~n", [dbg:ctpe(send)]),
    io:format("~p~n", [dbg:ctpe('receive')]),
    ask(P, 4),
    dbg_capture:sync(),
    io:format("-- cleared~n"),
    dbg_capture:print(Dev),
    P ! stop,
    dbg:stop_clear(),
    io:format("done~n").
