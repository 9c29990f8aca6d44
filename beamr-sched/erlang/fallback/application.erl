%% A stand-in for OTP's `application' module, embedded in beamr and loaded
%% only when no Erlang/OTP installation provides the real one, so that a
%% Gleam build (whose entry module calls application:ensure_all_started/1)
%% runs on a machine without Erlang.
%%
%% Without OTP there is no application controller: ensure_all_started/1,2
%% checks that the application's `.app' file is on the code path and
%% starts nothing. An application with a start module (`mod') needs OTP's
%% library, and gets an error that says so rather than silently not
%% starting.
%%
%% Rebuild: erlc +deterministic -o beamr-sched/erlang/fallback beamr-sched/erlang/fallback/application.erl
-module(application).
-export([ensure_all_started/1, ensure_all_started/2]).

ensure_all_started(App) -> ensure_all_started(App, temporary).

ensure_all_started(App, _Type) when is_atom(App) ->
    File = atom_to_list(App) ++ ".app",
    case code:where_is_file(File) of
        non_existing ->
            {error, {App, {"no such file or directory", File}}};
        Path ->
            {ok, Bin} = erl_prim_loader:read_file(Path),
            case binary:match(Bin, [<<"{mod,">>, <<"{mod ,">>]) of
                nomatch ->
                    {ok, []};
                _ ->
                    {error, {App, {start_module_needs_otp,
                                   "beamr without Erlang/OTP's library cannot start "
                                   "an application's start module; install Erlang/OTP"}}}
            end
    end;
ensure_all_started(App, Type) ->
    erlang:error(badarg, [App, Type]).
