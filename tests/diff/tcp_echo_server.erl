-module(tcp_echo_server).
-export([main/0]).

%% A small echo server: an acceptor process hands each connection to a
%% handler of its own ({packet, 4}, active once); three clients talk to
%% it at once; getopts/setopts/getstat on the way.

p(X) -> io:format("~p~n", [X]).

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {packet, 4}, {active, false},
                                 {reuseaddr, true}, {ip, {127,0,0,1}}]),
    p(inet:getopts(L, [reuseaddr, packet, mode, active])),
    {ok, Port} = inet:port(L),
    Acceptor = spawn(fun() -> accept_loop(L) end),
    ok = gen_tcp:controlling_process(L, Acceptor),
    Self = self(),
    Clients = [spawn(fun() -> client(Self, Port, N) end) || N <- [1, 2, 3]],
    Results = [receive {done, C, R} -> R end || C <- Clients],
    p(Results),
    Acceptor ! stop,
    ok.

accept_loop(L) ->
    case gen_tcp:accept(L, 50) of
        {ok, S} ->
            H = spawn(fun() -> receive go -> handle(S) end end),
            ok = gen_tcp:controlling_process(S, H),
            H ! go,
            accept_loop(L);
        {error, timeout} ->
            receive stop -> gen_tcp:close(L) after 0 -> accept_loop(L) end
    end.

handle(S) ->
    ok = inet:setopts(S, [{active, once}]),
    receive
        {tcp, S, Data} ->
            ok = gen_tcp:send(S, [<<"echo:">>, Data]),
            handle(S);
        {tcp_closed, S} ->
            ok
    end.

client(Parent, Port, N) ->
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {packet, 4}, {active, false}]),
    Replies = [begin
                   ok = gen_tcp:send(C, integer_to_binary(N * 10 + I)),
                   {ok, R} = gen_tcp:recv(C, 0, 2000),
                   R
               end || I <- [1, 2, 3]],
    {ok, Stats} = inet:getstat(C, [send_cnt, recv_cnt, send_oct, recv_oct]),
    ok = gen_tcp:close(C),
    Parent ! {done, self(), {N, Replies, Stats}}.
