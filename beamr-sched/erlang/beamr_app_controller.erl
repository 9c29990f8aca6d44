%% beamr's stand-in for OTP's application controller: it owns the `ac_tab'
%% table that application:get_env/2,3 and get_all_env/1 read, and answers
%% the requests that change it (set_env, unset_env) and
%% which_applications. The applications kernel and stdlib count as
%% running; no application is started or stopped.
%%
%% Compiled into beamr_app_controller.beam, which beamr embeds; rebuild with
%%   erlc +deterministic -o beamr-sched/erlang beamr-sched/erlang/beamr_app_controller.erl
-module(beamr_app_controller).
-export([start/0]).

-define(APPS, [{stdlib, "ERTS  CXC 138 10", "4.2"},
               {kernel, "ERTS  CXC 138 10", "8.5.3"}]).

%% Creates the table, then registers the process (beamr waits for the
%% name before the program starts).
start() ->
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
