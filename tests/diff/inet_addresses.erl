-module(inet_addresses).
-export([main/0]).

%% inet's address helpers and the host name, without a resolver: literal
%% addresses parse, the host name is a non-empty string.

p(X) -> io:format("~p~n", [X]).

main() ->
    {ok, Host} = inet:gethostname(),
    p(is_list(Host) andalso Host =/= [] andalso io_lib:printable_list(Host)),
    p(inet:getaddr({127,0,0,1}, inet)),
    p(inet:getaddr("127.0.0.1", inet)),
    p(inet:getaddrs("10.1.2.3", inet)),
    p(inet:getaddr("::1", inet6)),
    p(inet:parse_address("192.168.0.1")),
    p(inet:parse_address("not an address")),
    p(inet:ntoa({10,0,0,1})),
    p(inet:is_ip_address({1,2,3,4})),
    {ok, L} = gen_tcp:listen(0, [{ip, loopback}]),
    {ok, {Ip, _}} = inet:sockname(L),
    p(Ip),
    {ok, L6} = gen_tcp:listen(0, [inet6, {ip, {0,0,0,0,0,0,0,1}}]),
    {ok, {Ip6, P6}} = inet:sockname(L6),
    p({Ip6, is_integer(P6)}),
    {ok, C6} = gen_tcp:connect({0,0,0,0,0,0,0,1}, P6, [inet6]),
    {ok, S6} = gen_tcp:accept(L6),
    p(inet:peername(C6) =:= inet:sockname(S6)),
    ok = gen_tcp:send(C6, "six"),
    p(gen_tcp:recv(S6, 0)),
    %% The socket is active: the data arrives as a message. Once it is
    %% here no more traffic moves the counters, so two readings agree.
    receive {tcp, S6, Data} -> p(Data) end,
    p(lists:sort(element(2, inet:getstat(S6)))
      =:= lists:sort(element(2, inet:getstat(S6)))),
    p([K || {K, _} <- element(2, inet:getstat(S6))]),
    p(prim_inet:gettype(S6)),
    p(prim_inet:getstatus(L)),
    p(prim_inet:getstatus(S6)).
