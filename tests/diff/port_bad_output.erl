%% Output a port cannot take, with the logger on: port_command/2 with data
%% that is not iodata raises badarg, leaves the port open and logs "Bad
%% value on output port"; `Port ! {Pid, {command, Bad}}` logs the same and
%% the port exits with badsig, as it does for any message it cannot take
%% (another process's command, close or connect, a message of the wrong
%% shape).
-module(port_bad_output).
-export([main/0]).

main() ->
    logger_sync:watch(),
    process_flag(trap_exit, true),
    P = open_port({spawn, "cat"}, []),
    Command = try port_command(P, [foo]) catch C:R -> {C, R} end,
    logger_sync:logged(),
    io:format("port_command: ~p~n", [Command]),
    port_command(P, "still open\n"),
    receive {P, {data, D}} -> io:format("~p~n", [D]) after 5000 -> io:format("timeout~n") end,
    port_close(P),
    receive {'EXIT', P, normal} -> ok end,
    Other = spawn(fun() -> receive _ -> ok end end),
    %% {Name, Message, whether it is logged}
    Cases = [{bad_data, fun(_) -> {self(), {command, [256]}} end, true},
             {bad_data_atom, fun(_) -> {self(), {command, foo}} end, true},
             {bad_data_from_other, fun(_) -> {Other, {command, [-1]}} end, true},
             {other_command, fun(_) -> {Other, {command, "x"}} end, false},
             {other_close, fun(_) -> {Other, close} end, false},
             {other_connect, fun(_) -> {Other, {connect, self()}} end, false},
             {connect_not_pid, fun(_) -> {self(), {connect, foo}} end, false},
             {atom, fun(_) -> foo end, false},
             {triple, fun(_) -> {self(), {command, "x"}, extra} end, false},
             {sender_not_pid, fun(_) -> {foo, {command, "x"}} end, false},
             {unknown_request, fun(_) -> {self(), {commandx, "x"}} end, false},
             {unknown_atom, fun(_) -> {self(), closex} end, false}],
    [one(Name, Msg, Logged) || {Name, Msg, Logged} <- Cases],
    Exe = open_port({spawn_executable, "/bin/cat"}, [{arg0, "other_name"}]),
    Exe ! {self(), {command, [foo]}},
    receive {'EXIT', Exe, R2} -> logger_sync:logged(), io:format("spawn_executable: ~p~n", [R2]) end,
    io:format("done~n").

%% erts hands its report to the system logger on its own time:
%% logger_sync:logged/0 waits for it to be written.
one(Name, Msg, Logged) ->
    P = open_port({spawn, "cat"}, []),
    P ! Msg(P),
    receive
        {'EXIT', P, R} ->
            [logger_sync:logged() || Logged],
            io:format("~p: ~p~n", [Name, R])
    %% It exits at once; the timeout only ends a run where it did not.
    after 30000 -> io:format("~p: no exit~n", [Name])
    end.
