-module(port_connect).
-export([main/0]).

%% port_connect/2 and {Pid, {connect, NewPid}}: the new owner gets the
%% data; links and the connected process as port_info reports them.
main() ->
    Self = self(),
    P = open_port({spawn, "cat"}, []),
    Q = spawn(fun() -> relay(Self) end),
    true = port_connect(P, Q),
    io:format("connected to Q ~p~n", [erlang:port_info(P, connected) =:= {connected, Q}]),
    {links, Links} = erlang:port_info(P, links),
    io:format("links ~p~n", [lists:sort(Links) =:= lists:sort([Self, Q])]),
    unlink(P),
    {links, Links2} = erlang:port_info(P, links),
    io:format("after unlink ~p~n", [Links2 =:= [Q]]),
    port_command(P, "to q\n"),
    receive {relayed, M} -> io:format("Q got ~p~n", [M]) after 3000 -> io:format("timeout~n") end,
    Q ! {connect_back, P},
    receive {relayed, M2} -> io:format("Q got ~p~n", [M2]) after 3000 -> io:format("timeout~n") end,
    io:format("connected to self ~p~n", [erlang:port_info(P, connected) =:= {connected, Self}]),
    port_command(P, "to self\n"),
    receive {P, {data, D}} -> io:format("self got ~p~n", [D]) after 3000 -> io:format("timeout~n") end,
    io:format("bad connect ~p~n", [try port_connect(P, self) catch C:R -> {C, R} end]),
    port_close(P),
    io:format("connect closed ~p~n", [try port_connect(P, self()) catch C2:R2 -> {C2, R2} end]),
    ok.

relay(To) ->
    receive
        {connect_back, P} ->
            P ! {self(), {connect, To}},
            relay(To);
        {P, Msg} when is_port(P) ->
            To ! {relayed, Msg},
            relay(To)
    end.
