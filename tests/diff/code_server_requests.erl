%% The process registered as code_server answers the requests OTP's code
%% module sends it ({code_call, From, Request} -> {code_server, Reply}) as
%% the code module's own functions answer (those sent by OTP 25, 27 and 29
%% alike; code_server_paths: those whose shape changed).
-module(code_server_requests).
-export([main/0]).

main() ->
    Pid = whereis(code_server),
    io:format("registered: ~p~n", [is_pid(Pid)]),
    io:format("get_path: ~p~n", [call(get_path) =:= code:get_path()]),
    io:format("root_dir: ~p~n", [call({dir, root_dir}) =:= code:root_dir()]),
    io:format("lib_dir: ~p~n", [call({dir, lib_dir}) =:= code:lib_dir()]),
    io:format("lib_dir kernel: ~p~n", [call({dir, {lib_dir, kernel}}) =:= code:lib_dir(kernel)]),
    io:format("lib_dir unknown: ~p~n", [call({dir, {lib_dir, no_such_app}})]),
    io:format("priv_dir unknown: ~p~n", [call({dir, {priv_dir, no_such_app}})]),
    io:format("monitored: ~p~n", [is_process_alive(Pid)]),
    io:format("done~n").

call(Request) ->
    code_server ! {code_call, self(), Request},
    receive {code_server, Reply} -> Reply after 5000 -> timeout end.
