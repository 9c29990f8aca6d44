-module(socket_dgram_local).
-export([main/0]).

%% The socket module over UDP (sendto/recvfrom, a connected datagram
%% socket, a datagram bigger than the buffer asked for, recvfrom's
%% timeout), over IPv6 TCP, and over local stream and datagram sockets
%% with a path.

p(X) -> io:format("~p~n", [X]).

shape(#{port := Port} = A) when is_integer(Port), Port > 0 -> A#{port := port};
shape(A) -> A.

main() ->
    {ok, U1} = socket:open(inet, dgram, udp),
    {ok, U2} = socket:open(inet, dgram),
    ok = socket:bind(U1, #{family => inet, addr => loopback, port => 0}),
    ok = socket:bind(U2, #{family => inet, addr => {127,0,0,1}, port => 0}),
    {ok, A1} = socket:sockname(U1),
    {ok, A2} = socket:sockname(U2),
    p(socket:sendto(U1, <<"one">>, A2)),
    p(socket:sendto(U1, [<<"tw">>, $o], A2)),
    {ok, {From, D1}} = socket:recvfrom(U2),
    p({From =:= A1, D1}),
    p(element(2, socket:recvfrom(U2, 0, [], 5000)) =:= {A1, <<"two">>}),
    p(socket:recvfrom(U2, 0, [], 50)),
    p(socket:recvfrom(U2, 0, [], 0)),
    p(socket:sendto(U1, <<"0123456789">>, A2)),
    p(socket:recv(U2, 4)),
    p(socket:connect(U1, A2)),
    {ok, Peer} = socket:peername(U1),
    p(shape(Peer)),
    p(socket:send(U1, <<"connected">>)),
    p(socket:recv(U2, 0, 5000)),
    p(socket:getopt(U1, {socket, type})),
    p(socket:getopt(U1, {socket, protocol})),
    p(socket:getopt(U1, {socket, domain})),
    ok = socket:close(U1),
    ok = socket:close(U2),
    %% IPv6 on loopback.
    {ok, L6} = socket:open(inet6, stream, tcp),
    ok = socket:bind(L6, #{family => inet6, addr => loopback, port => 0}),
    ok = socket:listen(L6, 5),
    {ok, LA6} = socket:sockname(L6),
    p(shape(LA6)),
    {ok, C6} = socket:open(inet6, stream, tcp),
    p(socket:connect(C6, LA6)),
    {ok, S6} = socket:accept(L6),
    ok = socket:send(C6, <<"six">>),
    p(socket:recv(S6, 3)),
    [ok = socket:close(S) || S <- [C6, S6, L6]],
    %% Local stream sockets.
    Path = "/tmp/beamr_socket_" ++ os:getpid() ++ ".sock",
    _ = file:delete(Path),
    {ok, LL} = socket:open(local, stream, default),
    p(socket:bind(LL, #{family => local, path => Path})),
    ok = socket:listen(LL),
    {ok, LName} = socket:sockname(LL),
    p(LName =:= #{family => local, path => list_to_binary(Path)}),
    {ok, LC} = socket:open(local, stream),
    p(socket:connect(LC, #{family => local, path => Path})),
    {ok, LS} = socket:accept(LL),
    p(socket:sockname(LC)),
    ok = socket:send(LC, <<"local">>),
    p(socket:recv(LS, 5)),
    ok = socket:close(LC),
    p(socket:recv(LS, 0, 5000)),
    [ok = socket:close(S) || S <- [LS, LL]],
    ok = file:delete(Path),
    %% Local datagram sockets.
    P1 = Path ++ ".1", P2 = Path ++ ".2",
    {ok, D1s} = socket:open(local, dgram),
    {ok, D2s} = socket:open(local, dgram),
    ok = socket:bind(D1s, #{family => local, path => P1}),
    ok = socket:bind(D2s, #{family => local, path => P2}),
    p(socket:sendto(D1s, <<"dgram">>, #{family => local, path => P2})),
    {ok, {DFrom, DData}} = socket:recvfrom(D2s, 0, [], 5000),
    p({DFrom =:= #{family => local, path => list_to_binary(P1)}, DData}),
    [ok = socket:close(S) || S <- [D1s, D2s]],
    [ok = file:delete(F) || F <- [P1, P2]],
    p(done).
