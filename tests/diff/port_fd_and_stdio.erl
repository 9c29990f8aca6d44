%% Where a port's program talks: an {fd, In, Out} port writing to the
%% runtime's standard output (its name, info items, no os_pid); a
%% nouse_stdio program on descriptors 3 and 4 with the runtime's own
%% standard output; an out-only program writing to the runtime's standard
%% output; and the open_port settings erts checks (parallelism,
%% busy_limits_port, busy_limits_msgq).
-module(port_fd_and_stdio).
-export([main/0]).

drain(P) ->
    receive
        {P, {exit_status, S}} -> [{exit_status, S}];
        {P, {data, D}} -> [D | drain(P)]
    after 5000 -> [timeout]
    end.

exists(File) ->
    case filelib:is_regular(File) of
        true -> ok;
        false -> timer:sleep(10), exists(File)
    end.

setting(Opt) ->
    try open_port({spawn, "true"}, [Opt]) of
        P when is_port(P) -> catch port_close(P), ok
    catch
        error:Reason:Stack ->
            [{erlang, open_port, _, Info} | _] = Stack,
            {Reason, Info}
    end.

main() ->
    P = open_port({fd, 1, 1}, [out]),
    %% What the fd port writes comes out before what io writes next, as
    %% on erl, with no wait between them (erl writes at once when the
    %% descriptor takes it; beamr writes before port_command returns).
    port_command(P, "written by the fd port\n"),
    io:format("fd name: ~p~n", [erlang:port_info(P, name)]),
    io:format("fd keys: ~p~n", [[K || {K, _} <- erlang:port_info(P)]]),
    io:format("fd os_pid: ~p~n", [erlang:port_info(P, os_pid)]),
    true = port_close(P),
    B = open_port({fd, 0, 1}, [out, binary]),
    io:format("fd 0/1 name: ~p~n", [erlang:port_info(B, name)]),
    port_close(B),
    %% (Its own standard output is the runtime's: the out-only program
    %% below shows that, after a file says its line is out. A line written
    %% here unsynchronised came out before erl's earlier io lines once, as
    %% erl writes its own output a moment later.)
    N = open_port({spawn, "sh -c 'echo to4 >&4; read x <&3; echo got $x >&4'"},
                  [nouse_stdio, exit_status, {line, 80}]),
    port_command(N, "hi\n"),
    io:format("nouse_stdio: ~p~n", [drain(N)]),
    E = open_port({spawn_executable, "/bin/sh"},
                  [{args, ["-c", "cat <&3 >&4"]}, nouse_stdio, exit_status, binary]),
    port_command(E, <<"echoed on 3 and 4">>),
    io:format("nouse_stdio executable: ~p~n",
              [receive {E, {data, D}} -> D after 5000 -> timeout end]),
    port_close(E),
    %% The program writes on the runtime's standard output itself, then
    %% makes a file: once the file is there, its line is written.
    Done = "port_fd_and_stdio_" ++ os:getpid() ++ ".done",
    file:delete(Done),
    O = open_port({spawn, "sh -c 'read x; echo out-only got $x; : > " ++ Done ++ "'"}, [out]),
    port_command(O, "data\n"),
    exists(Done),
    file:delete(Done),
    io:format("out-only messages: ~p~n", [receive {O, M} -> M after 0 -> none end]),
    port_close(O),
    io:format("settings: ~p~n",
              [[{Opt, setting(Opt)}
                || Opt <- [{parallelism, true}, {parallelism, false}, {parallelism, x},
                           {busy_limits_port, disabled}, {busy_limits_port, {1, 2}},
                           {busy_limits_port, {1, 0}}, {busy_limits_port, {0, 0}},
                           {busy_limits_port, {a, 2}}, {busy_limits_msgq, disabled},
                           {busy_limits_msgq, {4, 4}}, {busy_limits_msgq, {-1, 2}},
                           use_stdio, nouse_stdio, hide, overlapped_io]]]).
