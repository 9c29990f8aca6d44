-module(port_monitor_link).
-export([main/0]).

%% Monitors and links with ports: demonitor, monitor of a closed port,
%% unlink before the port ends, link again.
main() ->
    process_flag(trap_exit, true),
    P = open_port({spawn, "cat"}, []),
    R1 = erlang:monitor(port, P),
    R2 = erlang:monitor(port, P),
    {monitored_by, By} = erlang:port_info(P, monitored_by),
    io:format("monitored_by ~p~n", [By =:= [self(), self()]]),
    true = erlang:demonitor(R1),
    io:format("demonitor info ~p~n", [erlang:demonitor(R1, [info])]),
    true = unlink(P),
    io:format("links after unlink ~p~n", [erlang:port_info(P, links)]),
    true = link(P),
    io:format("links after link ~p~n", [erlang:port_info(P, links) =:= {links, [self()]}]),
    true = unlink(P),
    port_close(P),
    io:format("~p~n", [flush(P)]),
    io:format("second monitor fired ~p~n", [is_reference(R2)]),
    R3 = erlang:monitor(port, P),
    receive {'DOWN', R3, port, P, Why} -> io:format("closed port monitor ~p~n", [Why]) after 1000 -> io:format("none~n") end,
    Q = open_port({spawn, "cat"}, []),
    exit(Q, normal),
    io:format("exit normal: ~p ~p~n", [flush(Q), erlang:port_info(Q)]),
    Q2 = open_port({spawn, "cat"}, []),
    exit(Q2, stop_it),
    io:format("exit stop_it: ~p ~p~n", [flush(Q2), erlang:port_info(Q2)]),
    Q3 = open_port({spawn, "cat"}, []),
    exit(Q3, kill),
    io:format("exit kill: ~p ~p~n", [flush(Q3), erlang:port_info(Q3)]),
    ok.

flush(P) ->
    receive
        {'EXIT', P, R} -> [{'EXIT', R} | flush(P)];
        {'DOWN', _, port, P, R} -> [{'DOWN', R} | flush(P)]
    after 500 -> []
    end.
