%% OTP's dbg on a process tracer: dbg:tracer/2 with a {Fun, State} handler
%% (the state threads through), dbg:get_tracer/0, dbg:p/2 on a pid with
%% m, then the default handler (dbg:dhandler/2) formatting into a device,
%% dbg:stop/0 and what a stopped dbg answers.
-module(dbg_tracer_handlers).
-export([main/0, loop/0]).

loop() ->
    receive
        {ping, From} -> From ! pong, loop();
        stop -> ok
    end.

main() ->
    Self = self(),
    Counting = {fun(Msg, N) -> Self ! {handled, N, Msg}, N + 1 end, 0},
    {ok, Server} = dbg:tracer(process, Counting),
    {ok, Tracer} = dbg:get_tracer(),
    io:format("tracer: ~p ~p ~p~n", [is_pid(Server), is_pid(Tracer), Server =/= Tracer]),
    io:format("again: ~p~n", [dbg:tracer()]),
    P = spawn(?MODULE, loop, []),
    io:format("p: ~p~n", [dbg:p(P, m)]),
    P ! {ping, self()},
    receive pong -> ok end,
    %% Each comes at once; the timeout only ends a run where one did not.
    Got = [receive {handled, N, M} -> {N, M} after 30000 -> none end || _ <- [1, 2]],
    io:format("~p~n", [trace_names:name(Got, #{P => p, Self => main})]),
    dbg:stop(),
    io:format("stopped: ~p~n", [dbg:get_tracer()]),
    %% The default handler's text.
    Dev = dbg_capture:device(),
    {ok, _} = dbg:tracer(process, dbg_capture:handler(Dev)),
    {ok, _} = dbg:p(P, [s, r]),
    P ! {ping, self()},
    receive pong -> ok end,
    P ! stop,
    dbg_capture:sync(),
    dbg_capture:print(Dev),
    dbg:stop_clear(),
    io:format("done~n").
