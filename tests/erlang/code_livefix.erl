%% Version 1 of a server with a bug: handle/1 should square its argument
%% but adds one. The live-fix test (beamr-sched/tests/code_live_fix.rs)
%% compiles a corrected version 2 at test time and loads it while the
%% server runs. The server's loop recurs through ?MODULE:loop/1, a fully
%% qualified call, so it enters the newest code at its next request.
-module(code_livefix).
-export([start/0, loop/1, handle/1, version/0, park/1]).

version() -> 1.

start() -> spawn(?MODULE, loop, [0]).

loop(N) ->
    receive
        {req, From, X} ->
            From ! {reply, self(), handle(X)},
            ?MODULE:loop(N + 1);
        {gate, From, X} ->
            %% A slow request: waits inside this version until told to go on.
            From ! {entered, self()},
            receive go -> ok end,
            From ! {reply, self(), handle(X)},
            ?MODULE:loop(N + 1);
        {count, From} ->
            From ! {count, self(), N},
            ?MODULE:loop(N)
    end.

handle(X) -> slow(X, 2000) + 1.

slow(X, 0) -> X * X;
slow(X, K) -> slow(X, K - 1).

%% Waits forever without a qualified call: stays in the version it started in.
park(From) ->
    From ! {parked, self()},
    receive never -> ok end.
