-module(port_command_bad_data).
-export([main/0]).

%% port_command/2 with data that is not iodata raises badarg and logs "Bad
%% value on output port" (the logger is on; logger_sync:logged/0 lets each
%% report out before the next line); the port stays open.
main() ->
    logger_sync:watch(),
    P = open_port({spawn, "cat"}, []),
    [begin
         R = try port_command(P, D) catch C:E -> {C, E} end,
         logger_sync:logged(),
         io:format("~p: ~p~n", [D, R])
     end || D <- [[foo], [256], [-1], foo, 1.5, [$a | $b]]],
    port_command(P, "still open\n"),
    receive {P, {data, Data}} -> io:format("~p~n", [Data]) after 3000 -> io:format("timeout~n") end,
    port_close(P),
    io:format("done~n").
