-module(inet_ifget).
-export([main/0]).

%% inet:ifget/2,3 as erts answers it from its SIOCGIF* ioctls, for every
%% interface of the host (the names inet:getifaddrs/0 gives, and lo), a
%% name no interface has, and bad requests: each option an interface
%% lacks is left out (an interface with no IPv4 address has no addr,
%% netmask, broadaddr or dstaddr; one that does not exist only flags []),
%% dstaddr is the address itself unless point-to-point, broadaddr
%% 0.0.0.0 where there is no broadcast.

p(X) -> io:format("~p~n", [X]).

main() ->
    All = [addr, broadaddr, dstaddr, mtu, netmask, flags, hwaddr],
    {ok, Ifs} = inet:getifaddrs(),
    Names = lists:usort(["lo", "no_such_if0" | [N || {N, _} <- Ifs]]),
    [p({N, inet:ifget(N, All)}) || N <- Names],
    p(inet:ifget(lo, [mtu, flags])),
    p(inet:ifget("lo", [flags, addr])),
    p(inet:ifget("lo", [])),
    p(inet:ifget("lo", [bogus])),
    p(inet:ifget("../lo", [mtu, flags])),
    {ok, U} = gen_udp:open(0),
    p(prim_inet:ifget(U, "lo", [netmask])),
    {ok, T} = gen_tcp:listen(0, []),
    p(prim_inet:ifget(T, "lo", [mtu])),
    p(inet:ifget(lists:duplicate(300, $a), [mtu])).
