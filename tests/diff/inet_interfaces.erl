-module(inet_interfaces).
-export([main/0]).

%% The host's interfaces as inet reports them: the loopback interface in
%% full (its flags, IPv4 and IPv6 addresses and netmasks, hardware
%% address), every interface's name and the kinds of its entries (the
%% rest is the machine's own), and getiflist's names. Then the resolver's
%% answers for literal addresses and malformed names (host names other
%% than literals depend on the machine's /etc/hosts, which the OTP roots
%% the suite runs in do not have).

p(X) -> io:format("~p~n", [X]).

main() ->
    {ok, Ifs} = inet:getifaddrs(),
    p(lists:keyfind("lo", 1, Ifs)),
    p([{Name, lists:usort([K || {K, _} <- Opts])} || {Name, Opts} <- Ifs]),
    {ok, List} = inet:getiflist(),
    p(lists:member("lo", List)),
    p(List -- [N || {N, _} <- Ifs]),
    p(inet:getaddr("127.0.0.1", inet)),
    p(inet:getaddr({127,0,0,1}, inet)),
    p(inet:getaddr("::1", inet6)),
    p(inet:getaddr({0,0,0,0,0,0,0,1}, inet6)),
    p(inet:getaddr("127.0.0.1", inet6)),
    p(inet:getaddrs("127.0.0.1", inet)),
    p(inet:getaddrs("::1", inet6)),
    p(inet:getaddrs("::ffff:127.0.0.1", inet6)),
    p(inet:getaddr("1.2.3", inet)),
    p(inet:getaddr("nosuch.invalid", inet)),
    p(inet:getaddr("", inet)),
    p(inet:getaddr(foo, bar)),
    p(catch inet:getaddrs(42, inet)),
    {ok, Host} = inet:gethostname(),
    p(is_list(Host) andalso io_lib:printable_list(Host)),
    ok.
