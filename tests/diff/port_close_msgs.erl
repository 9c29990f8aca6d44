-module(port_close_msgs).
-export([main/0]).

%% How a port ends: port_close/1, {Pid, close}, the program's end; which
%% messages a trapping owner and a monitor get, in which order.
main() ->
    process_flag(trap_exit, true),
    A = open_port({spawn, "cat"}, []),
    RA = erlang:monitor(port, A),
    true = port_close(A),
    io:format("port_close: ~p~n", [flush(A, RA)]),
    B = open_port({spawn, "cat"}, []),
    RB = erlang:monitor(port, B),
    B ! {self(), close},
    gone(B),
    io:format("close message: ~p~n", [flush(B, RB)]),
    %% The program ends once monitored (one that ends at once would race
    %% the monitor: noproc).
    C = open_port({spawn, "head -n 1"}, []),
    RC = erlang:monitor(port, C),
    port_command(C, "bye\n"),
    gone(C),
    io:format("program ends: ~p~n", [flush(C, RC)]),
    D = open_port({spawn, "cat"}, []),
    port_command(D, "echoed\n"),
    Echo = receive {D, {data, Data}} -> Data after 5000 -> timeout end,
    port_close(D),
    io:format("echo, then close: ~p ~p~n", [Echo, flush(D, none)]),
    io:format("close again: ~p~n", [try port_close(D) catch Cl:R -> {Cl, R} end]),
    io:format("command after close: ~p~n", [try port_command(D, "x") catch Cl2:R2 -> {Cl2, R2} end]),
    io:format("send after close: ~p~n", [(D ! {self(), {command, "x"}}) =:= {self(), {command, "x"}}]),
    io:format("monitor after close: ~p~n", [flush(D, erlang:monitor(port, D))]),
    E = open_port({spawn, "cat"}, []),
    process_flag(trap_exit, false),
    port_close(E),
    io:format("not trapping: ~p~n", [flush(E, none)]),
    ok.

%% Until port P has ended (however long its program takes), so that flush
%% finds its messages sent.
gone(P) ->
    case erlang:port_info(P) of
        undefined -> ok;
        _ -> timer:sleep(1), gone(P)
    end.

flush(P, Ref) ->
    receive
        {P, {data, D}} -> [{data, D} | flush(P, Ref)];
        {P, closed} -> [closed | flush(P, Ref)];
        {'EXIT', P, R} -> [{'EXIT', R} | flush(P, Ref)];
        {'DOWN', Ref, port, P, R} -> [{'DOWN', R} | flush(P, Ref)]
    after 500 -> []
    end.
