-module(tcp_packet_framing).
-export([main/0]).

%% {packet, N}: length headers of 1, 2 and 4 bytes, lines, raw; list and
%% binary modes; the header option; recv/3's length only in raw mode.

p(X) -> io:format("~p~n", [X]).

main() ->
    [begin
         {C, S} = tcp_pair:open([binary, {packet, N}], [binary, {packet, N}]),
         ok = gen_tcp:send(C, <<"one">>),
         ok = gen_tcp:send(C, <<>>),
         ok = gen_tcp:send(C, binary:copy(<<"z">>, 200)),
         {ok, A} = gen_tcp:recv(S, 0),
         {ok, B} = gen_tcp:recv(S, 0),
         {ok, Z} = gen_tcp:recv(S, 0),
         p({N, A, B, byte_size(Z)}),
         p(gen_tcp:recv(S, 3, 20)),
         p(inet:getopts(S, [packet])),
         gen_tcp:close(C), gen_tcp:close(S)
     end || N <- [1, 2, 4]],
    %% The header reaches a raw reader as bytes.
    {C1, S1} = tcp_pair:open([binary, {packet, raw}], [binary, {packet, 2}]),
    ok = gen_tcp:send(C1, <<"hey">>),
    p(gen_tcp:recv(S1, 5)),
    ok = gen_tcp:send(S1, <<0, 2, "ok">>),
    p(gen_tcp:recv(C1, 0)),
    %% Lines.
    {C2, S2} = tcp_pair:open([list, {packet, line}], [binary]),
    ok = gen_tcp:send(C2, "first\nsecond\nthi"),
    p(gen_tcp:recv(S2, 0)),
    p(gen_tcp:recv(S2, 0)),
    p(gen_tcp:recv(S2, 0, 30)),
    ok = gen_tcp:send(C2, "rd\n"),
    p(gen_tcp:recv(S2, 0)),
    p(inet:setopts(S2, [{line_delimiter, $;}])),
    ok = gen_tcp:send(C2, "a;b;"),
    p(gen_tcp:recv(S2, 0)),
    p(gen_tcp:recv(S2, 0)),
    %% List mode, then binary with a header.
    {C3, S3} = tcp_pair:open([list, {packet, 1}], [binary, {packet, 1}]),
    ok = gen_tcp:send(C3, <<"list">>),
    p(gen_tcp:recv(S3, 0)),
    p(inet:setopts(S3, [binary, {header, 2}])),
    ok = gen_tcp:send(C3, <<"headed">>),
    p(gen_tcp:recv(S3, 0)),
    ok = gen_tcp:send(C3, <<"h">>),
    p(gen_tcp:recv(S3, 0)),
    p(inet:getopts(S3, [mode, header, packet])),
    %% A length with a packet type is einval; raw takes it.
    p(gen_tcp:recv(S3, 2)),
    p(inet:setopts(S3, [{packet, raw}, {header, 0}])),
    ok = gen_tcp:send(C3, <<"abc">>),
    p(gen_tcp:recv(S3, 2)),
    p(gen_tcp:recv(S3, 0)),
    %% packet_size bounds a packet.
    {C4, S4} = tcp_pair:open([binary, {packet, 2}, {packet_size, 4}], [binary, {packet, 2}]),
    ok = gen_tcp:send(C4, <<"four">>),
    p(gen_tcp:recv(S4, 0)),
    ok = gen_tcp:send(C4, <<"fives">>),
    p(gen_tcp:recv(S4, 0)).
