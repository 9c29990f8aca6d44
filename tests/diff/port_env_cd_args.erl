-module(port_env_cd_args).
-export([main/0]).

%% spawn_executable with args and arg0, env (set and unset), cd.
main() ->
    Dir = filename:join("/tmp", "beamr_port_cd_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    os:putenv("BEAMR_PORT_UNSET_ME", "present"),
    Script = "echo \"args: $# $1 $2\"; echo \"var: $BEAMR_PORT_VAR\"; "
             "echo \"unset: ${BEAMR_PORT_UNSET_ME:-gone}\"; case \"$(pwd)\" in */beamr_port_cd_*) echo in-dir;; *) pwd;; esac",
    P = open_port({spawn_executable, "/bin/sh"},
                  [{args, ["-c", Script, "zero", "one", <<"two words">>]},
                   {env, [{"BEAMR_PORT_VAR", "value with spaces"}, {"BEAMR_PORT_UNSET_ME", false}]},
                   {cd, Dir}, exit_status, {line, 200}]),
    io:format("~p~n", [drain(P)]),
    P2 = open_port({spawn, "sh -c 'echo ${BEAMR_PORT_UNSET_ME}'"}, [exit_status]),
    io:format("inherits os env: ~p~n", [drain(P2)]),
    P3 = open_port({spawn_executable, "/bin/sh"}, [{args, ["-c", "echo $0"]}, {arg0, "myname"}, exit_status]),
    io:format("arg0: ~p~n", [drain(P3)]),
    P4 = open_port({spawn, "sh -c 'echo to stderr >&2; echo to stdout'"}, [stderr_to_stdout, exit_status, {line, 80}]),
    io:format("stderr_to_stdout: ~p~n", [lists:sort(drain(P4))]),
    P5 = open_port({spawn_executable, <<"/bin/echo">>}, [{args, ["bin", "name"]}, exit_status]),
    io:format("binary name: ~p~n", [drain(P5)]),
    file:del_dir(Dir),
    ok.

drain(P) ->
    receive
        {P, {data, D}} -> [D | drain(P)];
        {P, {exit_status, N}} -> [{exit_status, N}]
    after 3000 -> [timeout]
    end.
