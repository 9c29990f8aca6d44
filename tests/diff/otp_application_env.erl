%% The application environment: get_env/2,3, set_env/3,4, unset_env/2,
%% get_all_env/1 for an application that is not loaded, and
%% which_applications.
-module(otp_application_env).
-export([main/0]).

main() ->
    io:format("unset: ~p ~p~n", [application:get_env(my_app, key), application:get_env(my_app, key, default)]),
    ok = application:set_env(my_app, key, 42),
    ok = application:set_env(my_app, other, [1, 2], [{persistent, true}]),
    io:format("set: ~p ~p~n", [application:get_env(my_app, key), application:get_env(my_app, key, default)]),
    io:format("all: ~p~n", [lists:sort(application:get_all_env(my_app))]),
    ok = application:unset_env(my_app, key),
    io:format("unset again: ~p~n", [application:get_env(my_app, key)]),
    io:format("all: ~p~n", [application:get_all_env(my_app)]),
    ok = application:set_env([{my_app, [{a, 1}, {b, 2}]}, {other_app, [{c, 3}]}]),
    io:format("set_env/1: ~p ~p~n", [lists:sort(application:get_all_env(my_app)), application:get_env(other_app, c)]),
    %% From another process.
    Self = self(),
    spawn(fun() -> Self ! {seen, application:get_env(my_app, a)} end),
    receive {seen, V} -> io:format("other process: ~p~n", [V]) end,
    io:format("running: ~p~n", [lists:sort([A || {A, _, _} <- application:which_applications()])]),
    io:format("no app for self: ~p~n", [application:get_application()]).
