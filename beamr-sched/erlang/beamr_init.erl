%% beamr's `init': answers the requests OTP's library makes of the init
%% process (init:get_arguments/0, init:get_argument/1, init:get_status/0,
%% init:stop/0,1, ...) for a runtime started by `beamr run' or `beamr erl'.
%%
%% Compiled into beamr_init.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_init.erl
-module(beamr_init).
-export([start/2]).

%% beamr registers the process as `init' before it first runs. PlainArgs
%% are erl's plain arguments (after `--' on `beamr run', or those of
%% `beamr erl'); Flags are the flags of the command line, `[{Flag,
%% [Value]}]' in their order: `[{noshell, []}]' for `beamr run', the
%% user's flags (-pa, -config, -kernel Key Value, ...) for `beamr erl'.
start(PlainArgs, Flags) ->
    loop(PlainArgs, Flags).

loop(PlainArgs, Flags) ->
    receive
        {From, get_plain_arguments} when is_pid(From) ->
            From ! {init, PlainArgs},
            loop(PlainArgs, Flags);
        {From, Request} when is_pid(From) ->
            From ! {init, reply(Request, Flags)},
            loop(PlainArgs, Flags);
        %% init:stop/0,1, init:reboot/0 and init:restart/0 send these.
        {stop, {stop, Status}} ->
            stop(stop_status(Status));
        {stop, _StopOrReboot} ->
            stop(0);
        _Other ->
            loop(PlainArgs, Flags)
    end.

reply(get_arguments, Flags) -> arguments(Flags);
reply({get_argument, Flag}, Flags) ->
    case [Values || {F, Values} <- arguments(Flags), F =:= Flag] of
        [] -> error;
        Found -> {ok, Found}
    end;
reply(get_status, _) -> {started, started};
%% The system is up before any process can ask (the shell asks).
reply({notify_when_started, _Pid}, _) -> started;
reply(wait_until_started, _) -> started;
reply(script_id, _) -> {"beamr", "0.1.0"};
reply({stop, Status}, _) -> stop(stop_status(Status));
reply(stop, _) -> stop(0);
reply({reboot, _}, _) -> stop(0);
reply(reboot, _) -> stop(0);
reply(fetch_loaded, _) -> [];
reply({ensure_loaded, Module}, _) -> code:ensure_loaded(Module);
reply(_, _) -> {error, not_supported}.

%% The flags erl's start script gives every node: the root, `-bindir'
%% (where kernel finds erts's programs, such as inet_gethost, which beamr
%% runs natively), the program's name and the user's home directory (when
%% HOME is set); then the command line's own.
arguments(Flags) ->
    Home = case os:getenv("HOME") of
               false -> [];
               Dir -> [{home, [Dir]}]
           end,
    [{root, [code:root_dir()]}, {bindir, [bindir()]}, {progname, ["erl"]}]
        ++ Home ++ Flags.

bindir() ->
    Erts = "erts-" ++ erlang:system_info(version),
    filename:join([code:root_dir(), Erts, "bin"]).

%% As erl's init shuts the system down: what was logged is written first.
stop(Status) ->
    ok = beamr_logger:flush(),
    erlang:halt(Status).

stop_status(Status) when is_integer(Status) -> Status;
stop_status(_) -> 0.
