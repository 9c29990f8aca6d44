%% How beamr starts and stops kernel's logger.
%%
%% With OTP's library on the code path, beamr runs OTP's own logger, as
%% kernel does on erl: start_logger_server/0 loads kernel's application
%% environment (kernel.app: logger_level notice, ...), starts the logger
%% server (logger_server, registered `logger') and configures the primary
%% config from that environment (logger:internal_init_logger/0);
%% start_logger_handlers/0 starts
%% logger_sup (logger_handler_watcher, logger_proxy) and adds kernel's
%% handlers (logger:add_handlers(kernel): the default handler logger_std_h
%% writing to standard_io, with logger_formatter's legacy header). The
%% logger server and logger_sup are children of beamr's kernel_sup.
%% flush/0 waits until every event logged so far has been written, as
%% erl's init:stop/0 does when it shuts the handlers down.
%%
%% Without OTP's library there is no logger to run: boot/0 sets the primary
%% log level to `none' (logger:allow/2 and the ?LOG_* macros drop every
%% event) and start/0 is a stand-in `logger' process answering
%% logger_server's requests with ok.
%%
%% Compiled into beamr_logger.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_logger.erl
-module(beamr_logger).
-export([start_logger_server/0, start_logger_handlers/0, flush/0, boot/0, start/0]).

%% Run in a process of its own once kernel_sup and the application
%% controller are up, before kernel's servers start (as on erl, where
%% init starts the logger server and kernel configures it before its
%% supervisor starts anything: a server that fails to start is reported
%% through it); returns ok or crashes. Until start_logger_handlers/0, the
%% logger server's simple handler keeps what is logged.
start_logger_server() ->
    ok = load_kernel_env(),
    {ok, _} = supervisor:start_child(kernel_sup, #{id => logger,
                                                   start => {logger_server, start_link, []},
                                                   type => worker}),
    ok = logger:internal_init_logger().

%% Run in a process of its own after kernel's servers, before the program
%% starts: logger_sup and kernel's handlers; returns ok or crashes.
start_logger_handlers() ->
    {ok, _} = supervisor:start_child(kernel_sup, #{id => logger_sup,
                                                   start => {logger_sup, start_link, []},
                                                   type => supervisor}),
    ok = logger:add_handlers(kernel).

%% kernel.app's `env', as the application controller loads it when kernel
%% is loaded (values set before are kept). No timeout: on a loaded machine
%% the controller may take longer than set_env's default 5 s to answer
%% while boot goes on, and boot must not fail for that.
load_kernel_env() ->
    App = filename:join([code:lib_dir(kernel), "ebin", "kernel.app"]),
    {ok, [{application, kernel, Props}]} = file:consult(App),
    Env = proplists:get_value(env, Props, []),
    _ = [ok = application:set_env(kernel, Key, Value, [{timeout, infinity}])
         || {Key, Value} <- Env, application:get_env(kernel, Key) =:= undefined],
    ok.

%% Waits until the logger server has passed on every event sent to it and
%% until the handlers that write from a process of their own have written
%% every event they were given.
flush() ->
    case whereis(logger_sup) of
        undefined -> ok;
        _ -> flush_handlers()
    end.

flush_handlers() ->
    _ = catch sys:get_state(logger),
    _ = [catch Module:filesync(Id)
         || #{id := Id, module := Module} <- handlers(),
            Module =:= logger_std_h orelse Module =:= logger_disk_log_h],
    ok.

handlers() ->
    case catch logger:get_handler_config() of
        Configs when is_list(Configs) -> Configs;
        _ -> []
    end.

%% Without OTP's logger: run once before the program starts, sets
%% logger_config's primary level (level_to_int(none) = -1).
boot() ->
    persistent_term:put({logger_config, '$primary_config$'}, -1),
    ok.

%% Without OTP's logger: beamr registers the process as `logger' before it
%% first runs.
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
