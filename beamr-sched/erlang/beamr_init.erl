%% beamr's `init': answers the requests OTP's library makes of the init
%% process (init:get_arguments/0, init:get_argument/1, init:get_status/0,
%% init:stop/0,1, ...) for a runtime started by `beamr run'.
%%
%% Compiled into beamr_init.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_init.erl
-module(beamr_init).
-export([start/1]).

%% beamr registers the process as `init' before it first runs. PlainArgs
%% are the strings given after `--' on `beamr run' (erl's plain arguments).
start(PlainArgs) ->
    loop(PlainArgs).

loop(PlainArgs) ->
    receive
        {From, get_plain_arguments} when is_pid(From) ->
            From ! {init, PlainArgs},
            loop(PlainArgs);
        {From, Request} when is_pid(From) ->
            From ! {init, reply(Request)},
            loop(PlainArgs);
        %% init:stop/0,1, init:reboot/0 and init:restart/0 send these.
        {stop, {stop, Status}} ->
            stop(stop_status(Status));
        {stop, _StopOrReboot} ->
            stop(0);
        _Other ->
            loop(PlainArgs)
    end.

reply(get_arguments) -> arguments();
reply({get_argument, Flag}) ->
    case [Values || {F, Values} <- arguments(), F =:= Flag] of
        [] -> error;
        Found -> {ok, Found}
    end;
reply(get_status) -> {started, started};
reply(script_id) -> {"beamr", "0.1.0"};
reply({stop, Status}) -> stop(stop_status(Status));
reply(stop) -> stop(0);
reply({reboot, _}) -> stop(0);
reply(reboot) -> stop(0);
reply(fetch_loaded) -> [];
reply({ensure_loaded, Module}) -> code:ensure_loaded(Module);
reply(_) -> {error, not_supported}.

%% The flags erl's start script gives every node (`erl -noshell'): the
%% root, `-bindir' (where kernel finds erts's programs, such as
%% inet_gethost, which beamr runs natively), the program's name, the
%% user's home directory (when HOME is set) and -noshell.
arguments() ->
    Home = case os:getenv("HOME") of
               false -> [];
               Dir -> [{home, [Dir]}]
           end,
    [{root, [code:root_dir()]}, {bindir, [bindir()]}, {progname, ["erl"]}]
        ++ Home ++ [{noshell, []}].

bindir() ->
    Erts = "erts-" ++ erlang:system_info(version),
    filename:join([code:root_dir(), Erts, "bin"]).

%% As erl's init shuts the system down: what was logged is written first.
stop(Status) ->
    ok = beamr_logger:flush(),
    erlang:halt(Status).

stop_status(Status) when is_integer(Status) -> Status;
stop_status(_) -> 0.
