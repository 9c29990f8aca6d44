%% The OS surface without ports: os:type/version, the environment
%% (getenv/0,1,2, putenv, unsetenv, env) and getpid, with bad arguments.
-module(os_env).
-export([main/0]).

main() ->
    io:format("type: ~p~n", [os:type()]),
    {Maj, Min, Rel} = os:version(),
    io:format("version: ~p~n", [lists:all(fun is_integer/1, [Maj, Min, Rel])]),
    Pid = os:getpid(),
    io:format("getpid: ~p~n", [is_list(Pid) andalso list_to_integer(Pid) > 0]),
    Name = "BEAMR_OS_ENV_TEST_" ++ integer_to_list(erlang:unique_integer([positive])),
    io:format("unset: ~p ~p~n", [os:getenv(Name), os:getenv(Name, "default")]),
    io:format("putenv: ~p~n", [os:putenv(Name, "some value=with equals")]),
    io:format("getenv: ~p ~p~n", [os:getenv(Name), os:getenv(Name, "default")]),
    io:format("in getenv/0: ~p~n",
              [lists:member(Name ++ "=some value=with equals", os:getenv())]),
    io:format("in env/0: ~p~n", [lists:member({Name, "some value=with equals"}, os:env())]),
    io:format("env shape: ~p~n",
              [lists:all(fun({K, V}) -> is_list(K) andalso is_list(V) end, os:env())]),
    io:format("putenv empty: ~p ~p~n", [os:putenv(Name, ""), os:getenv(Name)]),
    io:format("unsetenv: ~p ~p~n", [os:unsetenv(Name), os:getenv(Name)]),
    io:format("unsetenv again: ~p~n", [os:unsetenv(Name)]),
    io:format("unicode: ~p ~p~n", [os:putenv(Name, "h\x{e9}llo \x{263a}"), os:getenv(Name)]),
    os:unsetenv(Name),
    io:format("empty name: ~p ~p ~p ~p~n", [os:putenv("", "x"), os:getenv(""), os:unsetenv(""),
                                           os:getenv("")]),
    %% The environment os:putenv changes is the one ports get; the
    %% runtime's own (the TZ localtime reads) stays as it started.
    Before = erlang:universaltime_to_localtime({{2024, 1, 15}, {12, 0, 0}}),
    os:putenv("TZ", "<-10>10"),
    After = [erlang:universaltime_to_localtime({{2024, 1, 15}, {12, 0, 0}}),
             erlang:localtime_to_universaltime(Before)],
    io:format("TZ put: ~p~n", [After =:= [Before, {{2024, 1, 15}, {12, 0, 0}}]]),
    [outcome:print(F) || F <- [fun() -> os:getenv(foo) end,
                     fun() -> os:getenv(<<"PATH">>) end,
                     fun() -> os:getenv(42) end,
                     fun() -> os:getenv(foo, "x") end,
                     fun() -> os:putenv("A=B", "x") end,
                     fun() -> os:putenv("A\0", "x") end,
                     fun() -> os:putenv("A", "x\0") end,
                     fun() -> os:getenv("A=B") end,
                     fun() -> os:unsetenv("A=B") end,
                     fun() -> os:putenv(foo, "x") end,
                     fun() -> os:putenv("X", bar) end,
                     fun() -> os:unsetenv(foo) end,
                     fun() -> os:getenv([$A | b]) end]],
    ok.

