%% A stand-in for OTP's `init' module (preloaded in erts), embedded in beamr
%% and loaded only when no Erlang/OTP installation provides the real one:
%% the requests a program makes of the init process (beamr_init) to stop
%% the runtime or read its plain arguments, as `gleam run''s entry module
%% does.
%%
%% Rebuild: erlc +deterministic -o beamr-sched/erlang/fallback beamr-sched/erlang/fallback/init.erl
-module(init).
-export([stop/0, stop/1, get_plain_arguments/0]).

stop() -> stop(0).

stop(Status) when is_integer(Status), Status >= 0; is_list(Status) ->
    init ! {stop, {stop, Status}},
    ok;
stop(Status) ->
    erlang:error(badarg, [Status]).

get_plain_arguments() ->
    init ! {self(), get_plain_arguments},
    receive {init, Args} -> Args end.
