-module(port_packet).
-export([main/0]).

%% {packet, N}: each port_command is framed with an N-byte length, and
%% cat's echo comes back cut into the same packets.
main() ->
    lists:foreach(fun(N) -> round_trip(N, []), round_trip(N, [binary]) end, [1, 2, 4]),
    %% A peer writing two packets at once, then a partial one before its end.
    P = open_port({spawn, "printf '\\000\\002hi\\000\\003abc\\000\\011x'"}, [{packet, 2}, eof]),
    io:format("~p~n", [drain(P)]),
    %% Too large for a one-byte header: the port ends with einval.
    process_flag(trap_exit, true),
    Q = open_port({spawn, "cat"}, [{packet, 1}]),
    io:format("~p~n", [try port_command(Q, lists:duplicate(256, $a)) catch C:R -> {C, R} end]),
    %% It exits at once; the timeout only ends a run where it did not.
    receive {'EXIT', Q, Why} -> io:format("exit ~p~n", [Why]) after 30000 -> io:format("no exit~n") end,
    io:format("~p~n", [erlang:port_info(Q)]),
    ok.

round_trip(N, Opts) ->
    P = open_port({spawn, "cat"}, [{packet, N} | Opts]),
    Msgs = ["one", <<"two">>, [], ["th", [<<"r">>, $e], <<"e">>], lists:duplicate(200, $z)],
    [port_command(P, M) || M <- Msgs],
    Got = [receive {P, {data, D}} -> D after 5000 -> timeout end || _ <- Msgs],
    io:format("packet ~p ~p: ~p~n", [N, Opts, [shorten(G) || G <- Got]]),
    port_close(P).

shorten(B) when is_binary(B), byte_size(B) > 10 -> {binary, byte_size(B)};
shorten(L) when is_list(L), length(L) > 10 -> {list, length(L)};
shorten(X) -> X.

drain(P) ->
    receive
        {P, {data, D}} -> [D | drain(P)];
        {P, eof} -> port_close(P), [eof]
    after 3000 -> [closed]
    end.
