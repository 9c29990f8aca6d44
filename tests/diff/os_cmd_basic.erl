-module(os_cmd_basic).
-export([main/0]).

%% os:cmd/1,2 runs OTP's own os.erl over a port.
main() ->
    io:format("~p~n", [os:cmd("echo hi; echo err >&2")]),
    io:format("~p~n", [os:cmd("exit 3")]),
    io:format("~p~n", [os:cmd("printf 'no newline'")]),
    io:format("~p~n", [os:cmd(echo)]),
    io:format("~p~n", [os:cmd(["echo ", ["deep", "list"]])]),
    io:format("~p~n", [os:cmd("cd /tmp && pwd")]),
    io:format("~p~n", [os:cmd("printf 'a\\nb\\n' | sort -r")]),
    io:format("~p~n", [os:cmd("echo ${BEAMR_OS_CMD_VAR:-unset}")]),
    os:putenv("BEAMR_OS_CMD_VAR", "set by putenv"),
    io:format("~p~n", [os:cmd("echo ${BEAMR_OS_CMD_VAR:-unset}")]),
    os:unsetenv("BEAMR_OS_CMD_VAR"),
    io:format("~p~n", [os:cmd("echo ${BEAMR_OS_CMD_VAR:-unset}")]),
    io:format("~p~n", [os:cmd("printf abcdefgh", #{max_size => 5})]),
    io:format("~p~n", [os:cmd("echo # a comment")]),
    io:format("~p~n", [os:cmd("read x; echo \"read: $x\"")]),
    io:format("ports left ~p~n", [[P || P <- erlang:ports(), erlang:port_info(P, name) =:= {name, "/bin/sh -s unix:cmd"}]]),
    [io:format("~p: ~p~n", [A, try os:cmd(A) catch C:R -> {C, R} end]) || A <- [42, [1 | 2], "a\0b", {x}]],
    ok.
