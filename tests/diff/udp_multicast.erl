-module(udp_multicast).
-export([main/0]).

%% IPv4 multicast on gen_udp: a socket joins a group on the loopback
%% interface (add_membership in gen_udp:open/2), another sends to the
%% group through that interface (multicast_if, multicast_ttl,
%% multicast_loop), the member receives it, then leaves the group with
%% drop_membership. As on erl, setopts answers ok whatever the kernel
%% says of a membership (leaving a group twice, a group that is no
%% multicast address). `getopts` of multicast_if is left out: erts
%% answers it with a garbage address.

p(X) -> io:format("~p~n", [X]).

main() ->
    G = {239,1,2,3},
    Lo = {127,0,0,1},
    {ok, R} = gen_udp:open(0, [binary, {active, false}, {reuseaddr, true},
                               {add_membership, {G, Lo}}, {multicast_loop, true}]),
    {ok, Port} = inet:port(R),
    {ok, S} = gen_udp:open(0, [binary, {multicast_if, Lo}, {multicast_ttl, 1},
                               {multicast_loop, true}]),
    p(inet:getopts(S, [multicast_ttl, multicast_loop])),
    ok = gen_udp:send(S, G, Port, <<"hello group">>),
    p(case gen_udp:recv(R, 0, 5000) of
          {ok, {_From, _FromPort, Data}} -> {got, Data};
          Other -> Other
      end),
    p(inet:setopts(R, [{drop_membership, {G, Lo}}])),
    p(inet:setopts(R, [{drop_membership, {G, Lo}}])),
    p(inet:setopts(R, [{add_membership, {{10,0,0,1}, Lo}}])),
    p(inet:setopts(S, [{multicast_ttl, 4}, {multicast_loop, false}])),
    p(inet:getopts(S, [multicast_ttl, multicast_loop])),
    p(inet:setopts(R, [{add_membership, {G, any}}])),
    p(inet:setopts(R, [{add_membership, nonsense}])),
    ok = gen_udp:close(S),
    ok = gen_udp:close(R).
