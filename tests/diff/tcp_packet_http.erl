%% gen_tcp with {packet, http | http_bin | httph | httph_bin}: the
%% socket reads a request or status line, then headers (it keeps that
%% state, also across a change of packet type) until http_eoh, then the
%% next message; passive recv answers {ok, HttpPacket}, active modes send
%% {http, S, HttpPacket} (once, N with tcp_passive, true); incomplete
%% lines wait (a header line waits for what follows it, which may
%% continue it); lines that do not parse are http_error packets; a line
%% longer than the buffer is emsgsize (and closes the socket) unless
%% packet_size allows it; the body is read after switching to raw.
-module(tcp_packet_http).
-export([main/0]).

p(X) -> io:format("~p~n", [X]).

recv(S) -> p(gen_tcp:recv(S, 0, 300)).

%% Reads the start line and the headers, then Len bytes of body.
request(S, Len) ->
    {ok, Line} = gen_tcp:recv(S, 0, 1000),
    p(Line),
    headers(S),
    ok = inet:setopts(S, [{packet, raw}]),
    Len > 0 andalso p(gen_tcp:recv(S, Len, 1000)).

headers(S) ->
    case gen_tcp:recv(S, 0, 1000) of
        {ok, http_eoh} -> p(http_eoh);
        {ok, H} -> p(H), headers(S);
        Other -> p(Other)
    end.

main() ->
    %% A request, passive, as binaries then as lists.
    [begin
         {C, S} = tcp_pair:open([binary, {packet, Type}], [binary]),
         ok = gen_tcp:send(C, <<"POST /form?a=1 HTTP/1.1\r\nHost: example.com\r\n"
                                "content-type: text/plain\r\nContent-Length: 4\r\n"
                                "X-Multi: one\r\n two\r\nuser-agent: t\r\n\r\nbody">>),
         request(S, 4),
         ok = inet:setopts(S, [{packet, Type}]),
         ok = gen_tcp:send(C, <<"GET * HTTP/1.0\r\n\r\nOPTIONS http://h:81/x HTTP/1.1\r\n\r\n">>),
         request(S, 0),
         ok = inet:setopts(S, [{packet, Type}]),
         request(S, 0),
         gen_tcp:close(C), gen_tcp:close(S)
     end || Type <- [http_bin, http]],
    %% Lines that arrive in parts.
    {C1, S1} = tcp_pair:open([binary, {packet, http_bin}], [binary]),
    ok = gen_tcp:send(C1, <<"GET /slow HT">>),
    recv(S1),
    ok = gen_tcp:send(C1, <<"TP/1.1\r\nHost: a">>),
    recv(S1),
    recv(S1),
    ok = gen_tcp:send(C1, <<"\r\n">>),
    recv(S1),
    ok = gen_tcp:send(C1, <<" continued\r\n">>),
    recv(S1),
    ok = gen_tcp:send(C1, <<"\r\n">>),
    recv(S1),
    recv(S1),
    %% The state stays across a packet type change: httph_bin reads
    %% headers, http_bin after it still reads headers until http_eoh.
    ok = gen_tcp:send(C1, <<"GET /again HTTP/1.1\r\nA: 1\r\nB: 2\r\n\r\n">>),
    recv(S1),
    ok = inet:setopts(S1, [{packet, httph}]),
    recv(S1),
    ok = inet:setopts(S1, [{packet, http_bin}]),
    recv(S1),
    recv(S1),
    %% Garbage and status lines.
    ok = gen_tcp:send(C1, <<"garbage\r\n\r\nHTTP/1.1 404 Not Found\r\nServer: x\r\nbad header\r\n\r\n">>),
    [recv(S1) || _ <- lists:seq(1, 6)],
    p(inet:getopts(S1, [packet])),
    %% Active modes.
    ok = gen_tcp:send(C1, <<"HTTP/1.0 200 OK\r\nA: b\r\n\r\nGET / HTTP/1.1\r\n\r\n">>),
    ok = inet:setopts(S1, [{active, once}]),
    p(tcp_pair:msgs(S1)),
    ok = inet:setopts(S1, [{active, 2}]),
    p(tcp_pair:msgs(S1)),
    ok = inet:setopts(S1, [{active, true}]),
    p(tcp_pair:msgs(S1)),
    ok = inet:setopts(S1, [{active, false}]),
    %% A header longer than the buffer is too long; packet_size lets it in.
    Long = <<"X-Long: ", (binary:copy(<<"v">>, 2000))/binary, "\r\n\r\n">>,
    ok = gen_tcp:send(C1, <<"GET / HTTP/1.1\r\n", Long/binary>>),
    recv(S1),
    recv(S1),
    recv(S1),
    p(gen_tcp:send(S1, <<"x">>)),
    gen_tcp:close(C1),
    [begin
         {C2, S2} = tcp_pair:open([binary, {packet, httph_bin} | Opts], [binary]),
         ok = gen_tcp:send(C2, Long),
         case gen_tcp:recv(S2, 0, 1000) of
             {ok, {http_header, 0, Name, _, Value}} -> p({Name, byte_size(Value)});
             Other -> p(Other)
         end,
         recv(S2),
         gen_tcp:close(C2)
     end || Opts <- [[], [{packet_size, 100}], [{packet_size, 3000}], [{buffer, 4000}],
                     [{packet_size, 3000}, {buffer, 100}]]],
    %% The peer closes in the middle of a line.
    {C3, S3} = tcp_pair:open([binary, {packet, http}], [binary]),
    ok = gen_tcp:send(C3, <<"GET / HTTP/1.1\r\nHost: x">>),
    ok = gen_tcp:close(C3),
    recv(S3),
    recv(S3),
    recv(S3),
    %% The client side reads a response; sends are not framed.
    {C4, S4} = tcp_pair:open([binary], [binary]),
    ok = inet:setopts(C4, [{packet, http_bin}]),
    ok = gen_tcp:send(C4, <<"GET / HTTP/1.1\r\n\r\n">>),
    p(gen_tcp:recv(S4, 0, 1000)),
    ok = gen_tcp:send(S4, <<"HTTP/1.1 301 Moved\r\nLocation: /new\r\nContent-Length: 0\r\n\r\n">>),
    [recv(C4) || _ <- lists:seq(1, 5)],
    ok.
