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
-export([start/0]).

-define(APPS, [{stdlib, "ERTS  CXC 138 10", "4.2"},
               {kernel, "ERTS  CXC 138 10", "8.5.3"}]).

%% beamr waits before the program starts: with OTP, for the name
%% `beamr_applications_started' (which it then removes), registered once
%% kernel and stdlib run; for the stand-in, for `application_controller',
%% registered once its table exists.
start() ->
    case otp_kernel_spec() of
        {ok, Kernel} -> start_otp(Kernel);
        error -> start_stand_in()
    end.

started() ->
    register(beamr_applications_started, self()).

%% kernel's application spec from kernel.app on the code path, without its
%% start module. Read with prim_file: the file server may not run yet.
%% (code:where_is_file/1 and prim_file are native in beamr: this runs
%% without OTP's library too, and then finds no kernel.app.)
otp_kernel_spec() ->
    case code:where_is_file("kernel.app") of
        File when is_list(File) ->
            case prim_file:read_file(File) of
                {ok, Bin} -> kernel_spec(Bin);
                _ -> error
            end;
        non_existing ->
            error
    end.

kernel_spec(Bin) ->
    case erl_scan:string(binary_to_list(Bin)) of
        {ok, Tokens, _} ->
            case erl_parse:parse_term(Tokens) of
                {ok, {application, kernel, Spec}} ->
                    {ok, {application, kernel, lists:keydelete(mod, 1, Spec)}};
                _ ->
                    error
            end;
        _ ->
            error
    end.

start_otp(Kernel) ->
    %% The controller reads `.app' files through the file server.
    wait_registered(file_server_2, 2000),
    try
        {ok, _Controller} = application_controller:start(Kernel),
        ok = application:load(stdlib),
        ok = application:start(kernel),
        ok = application:start(stdlib)
    catch
        Class:Reason ->
            Line = io_lib:format("beamr: OTP's application controller did not start: ~p~n",
                                 [{Class, Reason}]),
            beamr_io:put_error_chars(unicode, Line, unicode)
    end,
    started(),
    %% The controller is linked to its parent, as to erl's init.
    receive after infinity -> ok end.

wait_registered(_Name, 0) ->
    ok;
wait_registered(Name, Tries) ->
    case whereis(Name) of
        undefined ->
            receive after 1 -> wait_registered(Name, Tries - 1) end;
        _ ->
            ok
    end.

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
