-module(socket_owner_options).
-export([main/0]).

%% Who controls a socket of the socket module: its controlling
%% process's end closes it, setopt {otp, controlling_process} hands it
%% over (only from the controlling process), and the registry counts the
%% sockets. Then options at the socket, ip and tcp levels, and the
%% errors: a bad domain, type, protocol, address, option or value, an
%% address in use, a refused connect.

p(X) -> io:format("~p~n", [X]).

pair() ->
    {ok, L} = socket:open(inet, stream, tcp),
    ok = socket:bind(L, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(L),
    {ok, Addr} = socket:sockname(L),
    {ok, C} = socket:open(inet, stream, tcp),
    ok = socket:connect(C, Addr),
    {ok, S} = socket:accept(L),
    ok = socket:close(L),
    {C, S}.

main() ->
    Base = socket:number_of(),
    {C, S} = pair(),
    p(socket:number_of() - Base),
    p(socket:getopt(S, {otp, controlling_process}) =:= {ok, self()}),
    Self = self(),
    Owner = spawn(fun() ->
        receive go -> ok end,
        Self ! {other, socket:setopt(S, {otp, controlling_process}, Self)},
        receive stop -> exit(stop) end
    end),
    p(socket:setopt(S, {otp, controlling_process}, Owner)),
    p(socket:getopt(S, {otp, controlling_process}) =:= {ok, Owner}),
    Owner ! go,
    p(receive {other, R} -> R end),
    p(socket:setopt(S, {otp, controlling_process}, self())),
    Ref = monitor(process, Owner),
    Owner ! stop,
    receive {'DOWN', Ref, process, Owner, _} -> ok end,
    p(socket:recv(C, 0, 5000)),
    p(socket:send(S, <<"x">>)),
    p(socket:number_of() - Base),
    ok = socket:close(C),
    p(socket:number_of() - Base),
    %% Options.
    {ok, T} = socket:open(inet, stream, tcp),
    p(socket:setopt(T, {socket, reuseaddr}, true)),
    p(socket:getopt(T, {socket, reuseaddr})),
    p(socket:setopt(T, {socket, keepalive}, true)),
    p(socket:getopt(T, {socket, keepalive})),
    p(socket:setopt(T, {tcp, nodelay}, true)),
    p(socket:getopt(T, {tcp, nodelay})),
    p(socket:setopt(T, {socket, linger}, #{onoff => true, linger => 3})),
    p(socket:getopt(T, {socket, linger})),
    p(socket:setopt(T, {ip, ttl}, 33)),
    p(socket:getopt(T, {ip, ttl})),
    p(socket:getopt(T, {socket, acceptconn})),
    p(socket:getopt(T, {socket, type})),
    p(socket:setopt(T, {otp, rcvbuf}, 4096)),
    p(socket:getopt(T, {otp, rcvbuf})),
    p(socket:setopt(T, {otp, meta}, {some, meta})),
    p(socket:getopt(T, {otp, meta})),
    p([socket:setopt(T, {otp, rcvctrlbuf}, 2048), socket:getopt(T, {otp, rcvctrlbuf})]),
    p([socket:setopt(T, {otp, iow}, true), socket:getopt(T, {otp, iow})]),
    p(socket:setopt(T, {socket, reuseaddr}, not_a_bool)),
    p(socket:setopt(T, {socket, no_such_option}, 1)),
    p(socket:getopt(T, {no_such_level, ttl})),
    p(socket:is_supported(options, {socket, reuseaddr})),
    p(socket:is_supported(options, {tcp, nodelay})),
    p(socket:is_supported(ipv6)),
    p(socket:is_supported(local)),
    %% Errors.
    p(socket:open(no_such_domain, stream, tcp)),
    p(socket:open(inet, no_such_type, tcp)),
    p(socket:open(inet, stream, no_such_protocol)),
    p(socket:open(inet, stream, udp)),
    p(socket:bind(T, #{family => inet, addr => {10,255,255,1}, port => 0})),
    {ok, B} = socket:open(inet, stream, tcp),
    ok = socket:bind(B, #{family => inet, addr => loopback, port => 0}),
    ok = socket:listen(B),
    {ok, InUse} = socket:sockname(B),
    p(socket:bind(T, InUse)),
    ok = socket:close(B),
    {ok, Refused} = socket:open(inet, stream, tcp),
    p(socket:connect(Refused, InUse, 5000)),
    p(socket:bind(T, #{family => inet, addr => {1,2,3}, port => 0})),
    p(catch socket:connect(T, not_an_address)),
    p(try socket:send(T, not_data) catch error:badarg -> badarg end),
    p(try socket:recv(not_a_socket, 0) catch error:badarg -> badarg end),
    p(socket:recv(T, 0, 0)),
    p(socket:accept(T, 0)),
    [ok = socket:close(X) || X <- [T, Refused]],
    p(socket:number_of() - Base),
    p(done).
