-module(tcp_controlling_process).
-export([main/0]).

%% gen_tcp:controlling_process/2 moves a socket (and the messages it has
%% already sent) to another process; only the owner may; a socket closes
%% when its owner dies.

p(X) -> io:format("~p~n", [X]).

%% Whether port P is gone, waiting up to N times 10 ms for it to go (it
%% goes at once; the callers wait up to 30 s, for a loaded machine).
closed(P, 0) -> erlang:port_info(P, name) =:= undefined;
closed(P, N) ->
    case erlang:port_info(P, name) of
        undefined -> true;
        _ -> timer:sleep(10), closed(P, N - 1)
    end.

queued(N) ->
    case process_info(self(), message_queue_len) of
        {message_queue_len, N} -> ok;
        _ -> timer:sleep(1), queued(N)
    end.

main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(L),
    ok = inet:setopts(S, [{active, true}]),
    ok = gen_tcp:send(C, <<"early">>),
    %% Until the data is in this process's mailbox, to be moved.
    queued(1),
    Self = self(),
    Owner = spawn(fun() ->
        receive go -> ok end,
        Got = receive {tcp, S, D} -> D after 30000 -> none end,
        Self ! {got, Got, erlang:port_info(S, connected) =:= {connected, self()}},
        receive {tcp, S, D2} -> Self ! {got, D2} end,
        receive stop -> ok end
    end),
    p(gen_tcp:controlling_process(S, Owner)),
    Owner ! go,
    receive {got, G, IsOwner} -> p({G, IsOwner}) end,
    p(gen_tcp:controlling_process(S, self())),
    ok = gen_tcp:send(C, <<"later">>),
    receive {got, G2} -> p(G2) end,
    p(erlang:port_info(S, connected) =:= {connected, Owner}),
    Ref = monitor(process, Owner),
    Owner ! stop,
    receive {'DOWN', Ref, process, Owner, R} -> p(R) end,
    p(closed(S, 3000)),
    p(gen_tcp:recv(C, 0)),
    %% A socket opened by a process that then dies.
    spawn(fun() ->
        {ok, C2} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
        Self ! {c2, C2}
    end),
    receive {c2, C2} -> ok end,
    {ok, S2} = gen_tcp:accept(L),
    p(closed(C2, 3000)),
    p(gen_tcp:recv(S2, 0)).
