-module(port_gone_after_exit_status).
-export([main/0]).

%% A port program's end: once the owner has {Port, {exit_status, N}}, the
%% port (without eof) is gone, on every try: port_info answers undefined
%% and port_command is badarg. With eof the port stays until closed.
main() ->
    p(lists:usort([gone() || _ <- lists:seq(1, 100)])),
    P = open_port({spawn, "true"}, [exit_status, eof]),
    receive {P, {exit_status, 0}} -> ok end,
    receive {P, eof} -> ok end,
    p(erlang:port_info(P, name)),
    port_close(P),
    p(erlang:port_info(P, name)).

gone() ->
    P = open_port({spawn, "true"}, [exit_status]),
    receive {P, {exit_status, _}} -> ok end,
    Sent = try port_command(P, "x") catch error:Reason -> Reason end,
    {erlang:port_info(P, name), Sent}.

p(X) -> io:format("~p~n", [X]).
