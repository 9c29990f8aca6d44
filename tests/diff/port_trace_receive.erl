-module(port_trace_receive).
-export([main/0]).

%% Messages from a port reach a traced owner through the 'receive' probe,
%% in order, like any process's messages.
main() ->
    Self = self(),
    Owner = spawn(fun() ->
        receive go -> ok end,
        P = open_port({spawn, "printf 'one\\ntwo\\n'"}, [{line, 10}, exit_status, eof]),
        Got = [receive {P, M} -> M end || _ <- lists:seq(1, 4)],
        port_close(P),
        Self ! {got, P, Got}
    end),
    erlang:trace(Owner, true, ['receive', {tracer, Self}]),
    Owner ! go,
    {P, Got} = receive {got, Port, G} -> {Port, G} end,
    io:format("owner got ~p~n", [Got]),
    Traced = collect(),
    %% The port's messages (erts's open_port also sends its caller a
    %% {Ref, Port} reply of its own making, which only the trace shows).
    io:format("traced ~p~n", [[M || T <- Traced,
                                    {trace, owner, 'receive', {port, _} = M} <- [strip(T, P, Owner)]]]).

collect() ->
    receive {trace, _, 'receive', _} = T -> [T | collect()] after 500 -> [] end.

strip(T, P, _) when T =:= P -> port;
strip(T, _, O) when T =:= O -> owner;
strip(T, P, O) when is_tuple(T) -> list_to_tuple(strip(tuple_to_list(T), P, O));
strip([H | T], P, O) -> [strip(H, P, O) | strip(T, P, O)];
strip(T, _, _) -> T.
