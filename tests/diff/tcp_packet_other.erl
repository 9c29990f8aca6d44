%% gen_tcp with the protocol packet types: asn1, cdr, sunrm, fcgi, tpkt
%% and ssl_tls, cut by their headers and delivered whole (fcgi without its
%% padding; ssl_tls as {ssl_tls, S, Type, Version, Data}), passive and
%% active; sends are framed only for 1, 2 and 4; a malformed header is
%% emsgsize.
-module(tcp_packet_other).
-export([main/0]).

p(X) -> io:format("~p~n", [X]).

recv(S) -> p(tcp_pair:norm(S, gen_tcp:recv(S, 0, 300))).

%% Packets of Type sent in one go, read back passive, then active.
both(Type, Bytes, N) ->
    {C, S} = tcp_pair:open([binary, {packet, Type}], [binary]),
    ok = gen_tcp:send(C, Bytes),
    [recv(S) || _ <- lists:seq(1, N)],
    ok = gen_tcp:send(C, Bytes),
    ok = inet:setopts(S, [{active, true}]),
    p({Type, tcp_pair:msgs(S)}),
    gen_tcp:close(C), gen_tcp:close(S).

main() ->
    both(asn1, <<16#30, 3, 1, 2, 3, 16#04, 16#81, 2, "ab", 16#1f, 16#81, 1, 0>>, 3),
    both(cdr, <<"GIOP", 1, 2, 0, 0, 0, 0, 0, 2, "ab", "GIOP", 1, 2, 1, 0, 1, 0, 0, 0, "z">>, 2),
    both(sunrm, <<128, 0, 0, 2, "ab", 0, 0, 0, 0>>, 2),
    both(fcgi, <<1, 1, 0, 1, 0, 2, 1, 0, "abP", 1, 5, 0, 1, 0, 0, 0, 0>>, 2),
    both(tpkt, <<3, 0, 0, 6, "ab", 3, 0, 0, 4>>, 2),
    both(ssl_tls, <<22, 3, 3, 0, 2, "ab", 23, 3, 3, 0, 0, 128, 5, 1, 3, 1, "xy">>, 3),
    %% A record that arrives in parts.
    {C, S} = tcp_pair:open([binary, {packet, tpkt}], [binary]),
    ok = gen_tcp:send(C, <<3, 0>>),
    recv(S),
    ok = gen_tcp:send(C, <<0, 7, "abc">>),
    recv(S),
    %% Sends go as they are except for 1, 2 and 4.
    [begin
         ok = inet:setopts(S, [{packet, T}]),
         ok = gen_tcp:send(S, <<"data">>),
         p({T, gen_tcp:recv(C, 0, 1000)})
     end || T <- [asn1, cdr, sunrm, fcgi, tpkt, ssl_tls, line, http_bin, raw, 1, 2, 4]],
    %% packet_size, and a malformed header.
    ok = inet:setopts(S, [{packet, cdr}, {packet_size, 2}]),
    ok = gen_tcp:send(C, <<"GIOP", 1, 2, 0, 0, 0, 0, 0, 2, "ab", "GIOP", 1, 2, 0, 0, 0, 0, 0, 3, "abc">>),
    recv(S), recv(S), recv(S),
    {C1, S1} = tcp_pair:open([binary, {packet, fcgi}], [binary]),
    ok = gen_tcp:send(C1, <<2, 1, 0, 1, 0, 0, 0, 0>>),
    recv(S1), recv(S1),
    ok.
