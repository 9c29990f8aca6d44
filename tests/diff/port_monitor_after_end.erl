-module(port_monitor_after_end).
-export([main/0]).

%% A port whose program has ended, and whose data and end have been sent,
%% before its owner monitors it: the owner sees the data, then the
%% 'DOWN' with noproc.
main() ->
    P = open_port({spawn, "printf 'a\\nb\\n'"}, [{line, 4}]),
    spin_until_gone(P),
    Ref = erlang:monitor(port, P),
    io:format("~p~n", [drain(P, Ref)]).

%% Busy until the port is gone, without a receive (which would take the
%% port's messages into the mailbox first).
spin_until_gone(P) ->
    case erlang:port_info(P) of
        undefined -> ok;
        _ -> spin_until_gone(P)
    end.

drain(P, Ref) ->
    receive
        {P, {data, D}} -> [D | drain(P, Ref)];
        {'DOWN', Ref, port, P, Reason} -> [{'DOWN', Reason}]
    end.
