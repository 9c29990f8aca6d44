%% beamr's stand-in for OTP's logger server (kernel's logger_server,
%% registered as `logger'). beamr does not run OTP's logger: boot/0 sets the
%% primary log level to `none', so logger:allow/2 and the ?LOG_* macros
%% drop every event (no crash, supervisor or error reports are printed), and
%% the process answers logger_server's requests (logger:set_primary_config/2,
%% logger:remove_handler/1, ...) with ok so that programs configuring the
%% logger run unchanged.
%%
%% Compiled into beamr_logger.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_logger.erl
-module(beamr_logger).
-export([boot/0, start/0]).

%% Run once before the program starts: logger_config's primary level
%% (level_to_int(none) = -1).
boot() ->
    persistent_term:put({logger_config, '$primary_config$'}, -1),
    ok.

%% beamr registers the process as `logger' before it first runs.
start() ->
    loop().

loop() ->
    receive
        {'$gen_call', From, Request} ->
            reply(From, answer(Request)),
            loop();
        _Other ->
            loop()
    end.

answer({get_config, _}) -> {error, not_supported};
answer(_) -> ok.

reply({_Pid, [alias | Alias] = Tag}, Reply) when is_reference(Alias) ->
    Alias ! {Tag, Reply};
reply({Pid, Tag}, Reply) ->
    Pid ! {Tag, Reply}.
