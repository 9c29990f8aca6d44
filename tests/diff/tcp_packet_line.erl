%% gen_tcp with {packet, line}: lines up to the delimiter (line_delimiter
%% changes it), a line longer than the buffer option cut into pieces of
%% that size, packet_size making a longer line emsgsize (and closing the
%% socket); passive and {active, once}; lines that arrive in parts.
-module(tcp_packet_line).
-export([main/0]).

p(X) -> io:format("~p~n", [X]).

msgs(S) ->
    receive {tcp, S, D} -> [D | msgs(S)]; {tcp_passive, S} -> [passive | msgs(S)]
    after 300 -> []
    end.

recv(S) -> p(gen_tcp:recv(S, 0, 300)).

main() ->
    {C, S} = tcp_pair:open([binary, {packet, line}], [binary]),
    p(inet:getopts(S, [packet, buffer, packet_size])),
    ok = gen_tcp:send(C, <<"one\ntwo\nthr">>),
    recv(S), recv(S), recv(S),
    ok = gen_tcp:send(C, <<"ee\n\n">>),
    recv(S), recv(S),
    %% Longer than the buffer: cut at it.
    ok = gen_tcp:send(C, <<(binary:copy(<<"a">>, 3000))/binary, "\nend\n">>),
    p([byte_size(B) || {ok, B} <- [gen_tcp:recv(S, 0, 1000) || _ <- lists:seq(1, 4)]]),
    ok = inet:setopts(S, [{buffer, 8}]),
    ok = gen_tcp:send(C, <<"0123456789abcdefghij\nxy\n12345678\n">>),
    [recv(S) || _ <- lists:seq(1, 6)],
    ok = gen_tcp:send(C, <<"0123456">>),
    recv(S),
    ok = gen_tcp:send(C, <<"7">>),
    recv(S),
    ok = inet:setopts(S, [{buffer, 1460}]),
    %% Another delimiter, active once.
    ok = inet:setopts(S, [{line_delimiter, $;}]),
    ok = gen_tcp:send(C, <<"a=1;b=2\n;c">>),
    recv(S), recv(S),
    ok = inet:setopts(S, [{active, once}]),
    p(msgs(S)),
    ok = gen_tcp:send(C, <<";d;e;f;">>),
    %% (The pending once takes the first line as it arrives.)
    timer:sleep(100),
    p(msgs(S)),
    ok = inet:setopts(S, [{active, once}]),
    p(msgs(S)),
    ok = inet:setopts(S, [{active, 2}]),
    p(msgs(S)),
    ok = inet:setopts(S, [{line_delimiter, $\n}, list]),
    ok = gen_tcp:send(C, <<"as a list\n">>),
    recv(S),
    ok = inet:setopts(S, [binary]),
    %% packet_size.
    ok = inet:setopts(S, [{packet_size, 5}]),
    ok = gen_tcp:send(C, <<"1234\n12345\n123456\nnext\n">>),
    recv(S), recv(S), recv(S), recv(S),
    p(gen_tcp:send(S, <<"x">>)),
    gen_tcp:close(C),
    %% Without exit_on_close the socket stays, and sends.
    {C1, S1} = tcp_pair:open([binary, {packet, line}, {packet_size, 3}, {exit_on_close, false}], [binary]),
    ok = gen_tcp:send(C1, <<"ab\nabcd\nab\n">>),
    recv(S1), recv(S1), recv(S1),
    p(gen_tcp:send(S1, <<"still\n">>)),
    p(gen_tcp:recv(C1, 0, 1000)),
    %% An active socket delivers nothing for it; a recv then gets the error.
    {C2, S2} = tcp_pair:open([binary, {packet, line}, {packet_size, 3}], [binary]),
    ok = gen_tcp:send(C2, <<"ab\nabcd\n">>),
    ok = inet:setopts(S2, [{active, true}]),
    p(msgs(S2)),
    ok = inet:setopts(S2, [{active, false}]),
    recv(S2), recv(S2),
    ok.
