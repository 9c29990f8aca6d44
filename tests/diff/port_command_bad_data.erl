-module(port_command_bad_data).
-export([main/0]).

%% port_command/2 with data that is not iodata raises badarg; the port
%% stays open. (erts also logs an error report with a timestamp, which
%% the logger level keeps out of the output.)
main() ->
    logger:set_primary_config(level, none),
    P = open_port({spawn, "cat"}, []),
    [io:format("~p: ~p~n", [D, try port_command(P, D) catch C:R -> {C, R} end])
     || D <- [[foo], [256], [-1], foo, 1.5, [$a | $b]]],
    port_command(P, "still open\n"),
    receive {P, {data, Data}} -> io:format("~p~n", [Data]) after 3000 -> io:format("timeout~n") end,
    port_close(P).
