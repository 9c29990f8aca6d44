%% Selective receive patterns: call/response with refs, priority
%% messages, flushing, nested receives, and a simple server loop.
-module(proc_selective).
-export([main/0]).

main() ->
    Server = spawn(fun() -> server(0) end),
    io:format("calls: ~p~n", [[call(Server, {add, N}) || N <- [1, 2, 3, 4]]]),
    %% Responses come back tagged; unrelated messages wait in the queue.
    self() ! unrelated,
    io:format("call: ~p~n", [call(Server, get)]),
    io:format("still there: ~p~n", [receive unrelated -> yes after 0 -> no end]),
    %% Priority: urgent messages first.
    [self() ! {normal, N} || N <- [1, 2, 3]],
    self() ! {urgent, a},
    self() ! {normal, 4},
    self() ! {urgent, b},
    io:format("prioritised: ~p~n", [prio([])]),
    %% Nested receive.
    self() ! outer, self() ! inner,
    R = receive outer -> receive inner -> both end end,
    io:format("nested: ~p~n", [R]),
    %% Many messages, pick by key.
    [self() ! {K, K * 10} || K <- lists:seq(1, 50)],
    Picked = [receive {K, V} -> V end || K <- [50, 1, 25, 2, 49]],
    io:format("picked: ~p~n", [Picked]),
    io:format("left: ~p~n", [length(flush())]),
    Server ! stop.

call(Server, Req) ->
    Ref = make_ref(),
    Server ! {call, self(), Ref, Req},
    receive {reply, Ref, Reply} -> Reply end.

server(N) ->
    receive
        {call, From, Ref, {add, K}} -> From ! {reply, Ref, N + K}, server(N + K);
        {call, From, Ref, get} -> From ! {reply, Ref, N}, server(N);
        stop -> ok
    end.

prio(Acc) ->
    receive
        {urgent, X} -> prio([X | Acc])
    after 0 ->
        receive
            {normal, X} -> prio([X | Acc])
        after 0 -> lists:reverse(Acc)
        end
    end.

flush() ->
    receive M -> [M | flush()] after 0 -> [] end.
