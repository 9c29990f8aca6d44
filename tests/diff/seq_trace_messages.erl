%% seq_trace events of messages between processes, as the system tracer
%% gets them: send, 'receive' (when the message is received, not when it
%% arrives), print, a self-send, and the serial counters of every token
%% along the way. Events are printed sorted by serial (processes run at
%% once, so arrival order may vary).
-module(seq_trace_messages).
-export([main/0]).

main() ->
    Me = self(),
    Tracer = spawn(fun() -> collect([]) end),
    false = seq_trace:set_system_tracer(Tracer),
    Tracer = seq_trace:get_system_tracer(),
    {sequential_tracer, Tracer} = erlang:system_info(sequential_tracer),
    B = spawn(fun() -> server() end),
    C = spawn(fun() -> server() end),
    seq_trace:set_token(label, 17),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    seq_trace:set_token(print, true),
    T0 = seq_trace:get_token(),
    B ! {Me, ping},
    T1 = seq_trace:get_token(),
    {BT, BT2} = receive {reply, ping, X, Y} -> {X, Y} end,
    T2 = seq_trace:get_token(),
    %% B forwards to C, C answers me directly.
    B ! {Me, {forward, C}},
    CT = receive {reply, forwarded, X2, _} -> X2 end,
    T3 = seq_trace:get_token(),
    seq_trace:print(17, mine),
    seq_trace:print(99, not_mine),
    seq_trace:print(any_label),
    Me ! to_self,
    receive to_self -> ok end,
    T4 = seq_trace:get_token(),
    %% A message with no token empties the receiver's token.
    B ! {Me, plain},
    receive plain_reply -> ok end,
    Plain = seq_trace:get_token(),
    seq_trace:set_token([]),
    B ! {Me, untokened},
    receive {reply, untokened, NoToken, _} -> ok end,
    B ! stop, C ! stop,
    timer:sleep(100),
    Tracer ! {dump, Me},
    Events = receive {events, E} -> E end,
    Names = #{Me => me, B => b, C => c, Tracer => tracer},
    io:format("tokens ~p~n", [trace_names:name([T0, T1, BT, BT2, T2, CT, T3, T4, Plain, NoToken], Names)]),
    Named = [trace_names:name(Ev, Names) || Ev <- Events],
    [io:format("~p~n", [Ev]) || Ev <- lists:sort(fun order/2, Named)],
    Tracer = seq_trace:set_system_tracer(false),
    io:format("~p ~p~n", [seq_trace:get_system_tracer(), erlang:system_info(sequential_tracer)]).

%% By serial, then send before print before 'receive', then by the rest.
order({seq_trace, _, {K1, {_, S1}, _, _, _}} = E1, {seq_trace, _, {K2, {_, S2}, _, _, _}} = E2) ->
    {S1, rank(K1), E1} =< {S2, rank(K2), E2}.

rank(send) -> 0;
rank(print) -> 1;
rank('receive') -> 2.

server() ->
    receive
        {From, {forward, To}} ->
            To ! {From, forwarded},
            server();
        {From, plain} ->
            %% Sent with the token already gone from this process.
            seq_trace:set_token([]),
            From ! plain_reply,
            server();
        {From, What} ->
            T = seq_trace:get_token(),
            From ! {reply, What, T, seq_trace:get_token(serial)},
            seq_trace:print(17, {printed_by_server, What}),
            server();
        stop -> ok
    end.

collect(Acc) ->
    receive
        {dump, To} -> To ! {events, lists:reverse(Acc)};
        Event -> collect([Event | Acc])
    end.
