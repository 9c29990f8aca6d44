%% The application controller of a beamr run.
%%
%% With OTP's library on the code path, this process starts OTP's own
%% application_controller as erl's init does (application_controller:start/1
%% with kernel's application spec), then loads and starts kernel and stdlib,
%% and stays alive as the controller's parent. kernel starts as a library
%% application (its spec without `mod'): beamr runs its own stand-ins for
%% kernel's servers (kernel_sup, logger, the file server), so kernel's
%% supervision tree is not started. Applications then load from the `.app'
%% files on the code path and start as on the BEAM
%% (application:ensure_all_started/1, which `gleam run' uses).
%%
%% Without OTP's library (beamr run with no OTP installation), it is a
%% stand-in: it owns the `ac_tab' table that application:get_env/2,3 and
%% get_all_env/1 read, answers the requests that change it (set_env,
%% unset_env) and which_applications, and starts no application.
%%
%% Compiled into beamr_app_controller.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_app_controller.erl
-module(beamr_app_controller).
-export([start/1]).

-define(APPS, [{stdlib, "ERTS  CXC 138 10", "4.2"},
               {kernel, "ERTS  CXC 138 10", "8.5.3"}]).

%% KernelApp is the path of kernel.app on the code path (OTP's library is
%% there), or `none'. beamr waits before the program starts: with OTP, for
%% the name `beamr_applications_started' (which it then removes),
%% registered once kernel and stdlib run; for the stand-in, for
%% `application_controller', registered once its table exists.
start(none) ->
    start_stand_in();
start(KernelApp) ->
    try
        {ok, _Controller} = start_controller(kernel_spec(KernelApp)),
        ok = application:load(stdlib),
        ok = application:start(kernel),
        ok = application:start(stdlib)
    catch
        Class:Reason ->
            Line = io_lib:format("beamr: OTP's application controller did not start: ~p~n",
                                 [{Class, Reason}]),
            beamr_io:put_error_chars(unicode, Line, unicode)
    end,
    register(beamr_applications_started, self()),
    %% The controller is linked to its parent, as to erl's init.
    receive after infinity -> ok end.

%% With -config files (`beamr erl'), a controller that does not start (a
%% file missing or unreadable: start/1 returns the reason as a string)
%% ends the runtime as erl's init ends it.
start_controller(Spec) ->
    case application_controller:start(Spec) of
        Reason when is_list(Reason) ->
            case init:get_argument(config) of
                {ok, _} -> beamr_init_boot:kernel_pid_failed(application_controller, Reason);
                error -> Reason
            end;
        Started ->
            Started
    end.

%% kernel's application spec, without its start module. Read as the
%% controller reads `.app' files, through erl_prim_loader (native in beamr).
kernel_spec(KernelApp) ->
    {ok, Bin} = erl_prim_loader:read_file(KernelApp),
    {ok, Tokens, _} = erl_scan:string(binary_to_list(Bin)),
    {ok, {application, kernel, Spec}} = erl_parse:parse_term(Tokens),
    {application, kernel, lists:keydelete(mod, 1, Spec)}.

start_stand_in() ->
    _ = ets:new(ac_tab, [set, public, named_table, {read_concurrency, true}]),
    register(application_controller, self()),
    loop().

loop() ->
    receive
        {'$gen_call', From, Request} ->
            reply(From, answer(Request)),
            loop();
        _Other ->
            loop()
    end.

answer({set_env, App, Key, Val, _Opts}) ->
    true = ets:insert(ac_tab, {{env, App, Key}, Val}),
    ok;
answer({set_env, Config, _Opts}) ->
    _ = [ets:insert(ac_tab, {{env, App, Key}, Val})
         || {App, Env} <- Config, {Key, Val} <- Env],
    ok;
answer({unset_env, App, Key, _Opts}) ->
    true = ets:delete(ac_tab, {env, App, Key}),
    ok;
answer(which_applications) ->
    ?APPS;
answer(_) ->
    {error, not_supported}.

reply({_Pid, [alias | Alias] = Tag}, Reply) when is_reference(Alias) ->
    Alias ! {Tag, Reply};
reply({Pid, Tag}, Reply) ->
    Pid ! {Tag, Reply}.
