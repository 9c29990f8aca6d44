-module(port_register).
-export([main/0]).

%% A registered port: whereis, port_command and ! by name, port_info's
%% registered_name; the name goes with the port.
main() ->
    P = open_port({spawn, "cat"}, []),
    io:format("register ~p~n", [register(beamr_test_port, P)]),
    io:format("whereis ~p~n", [whereis(beamr_test_port) =:= P]),
    io:format("registered ~p~n", [lists:member(beamr_test_port, registered())]),
    io:format("info ~p~n", [erlang:port_info(P, registered_name)]),
    io:format("info/1 first ~p~n", [hd(erlang:port_info(P))]),
    io:format("info by name ~p~n", [erlang:port_info(beamr_test_port, name)]),
    io:format("again ~p~n", [try register(other_name, P) catch C:R -> {C, R} end]),
    io:format("taken ~p~n", [try register(beamr_test_port, self()) catch C2:R2 -> {C2, R2} end]),
    true = port_command(beamr_test_port, "by name\n"),
    receive {P, {data, D}} -> io:format("~p~n", [D]) after 3000 -> io:format("timeout~n") end,
    beamr_test_port ! {self(), {command, "by send\n"}},
    receive {P, {data, D2}} -> io:format("~p~n", [D2]) after 3000 -> io:format("timeout~n") end,
    true = unregister(beamr_test_port),
    io:format("after unregister ~p ~p~n", [whereis(beamr_test_port), erlang:port_info(P, registered_name)]),
    true = register(beamr_test_port, P),
    beamr_test_port ! {self(), close},
    receive {P, closed} -> io:format("closed~n") after 3000 -> io:format("timeout~n") end,
    io:format("name gone ~p~n", [whereis(beamr_test_port)]),
    io:format("command by gone name ~p~n", [try port_command(beamr_test_port, "x") catch C3:R3 -> {C3, R3} end]),
    io:format("port_info by unknown name ~p~n", [erlang:port_info(no_such_name)]),
    %% A cd that is not a directory: the program says so and exits with 2.
    Q = open_port({spawn, "cat"}, [{cd, "/nonexistent/beamr/dir"}, exit_status, stderr_to_stdout]),
    io:format("~p~n", [collect(Q)]).

collect(Q) ->
    receive
        {Q, {data, D}} -> [D | collect(Q)];
        {Q, {exit_status, N}} -> [{exit_status, N}]
    after 3000 -> [timeout]
    end.
