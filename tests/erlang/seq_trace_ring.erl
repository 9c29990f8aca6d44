%% A seq_trace sequence for `beamr trace seq`: main sends ping to a server
%% with a token labelled 7, the server prints and answers pong; then 50
%% plain messages to the server for the trace limits.
-module(seq_trace_ring).
-export([main/0]).

main() ->
    Server = spawn(fun server/0),
    seq_trace:set_token(label, 7),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    seq_trace:set_token(print, true),
    Server ! {self(), ping},
    receive pong -> ok end,
    seq_trace:set_token([]),
    [Server ! {self(), N} || N <- lists:seq(1, 50)],
    [receive pong -> ok end || _ <- lists:seq(1, 50)],
    io:format("done~n").

server() ->
    receive
        {From, ping} ->
            seq_trace:print(7, got_ping),
            From ! pong,
            server();
        {From, _} ->
            From ! pong,
            server()
    end.
