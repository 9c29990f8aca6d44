%% atomics and counters: signed and unsigned arrays, wrap-around, exchange
%% and compare_exchange, info/1, write_concurrency counters, and the
%% badarg (with the BIF's frame) of a bad index, value or reference.
-module(atomics_counters).
-export([main/0]).

t(F) ->
    try F() catch C:E:S -> {C, E, frame(hd(S))} end.

%% The raising function and its arity (references are not printed).
frame({M, F, Args, Loc}) when is_list(Args) -> {M, F, length(Args), Loc};
frame({M, F, Arity, Loc}) -> {M, F, Arity, Loc}.

main() ->
    A = atomics:new(3, []),
    U = atomics:new(2, [{signed, false}]),
    io:format("info: ~p~n", [[atomics:info(A), atomics:info(U), atomics:info(atomics:new(100, []))]]),
    io:format("new: ~p ~p~n", [is_reference(A), atomics:get(A, 1)]),
    io:format("signed: ~p~n",
              [[atomics:put(A, 1, (1 bsl 63) - 1), atomics:add_get(A, 1, 1),
                atomics:sub_get(A, 1, 1), atomics:add(A, 2, 10), atomics:get(A, 2),
                atomics:sub(A, 2, 3), atomics:get(A, 2)]]),
    io:format("unsigned: ~p~n",
              [[atomics:put(U, 1, 0), atomics:sub_get(U, 1, 1), atomics:add_get(U, 1, 2),
                atomics:put(U, 2, (1 bsl 64) - 1), atomics:get(U, 2)]]),
    io:format("exchange: ~p~n",
              [[atomics:exchange(A, 3, 5), atomics:compare_exchange(A, 3, 5, 7),
                atomics:compare_exchange(A, 3, 5, 9), atomics:get(A, 3)]]),
    Bad = [fun() -> atomics:get(A, 0) end, fun() -> atomics:get(A, 4) end,
           fun() -> atomics:put(U, 1, -1) end, fun() -> atomics:put(U, 1, 1 bsl 64) end,
           fun() -> atomics:put(A, 1, 1 bsl 63) end, fun() -> atomics:add(A, 1, a) end,
           fun() -> atomics:new(0, []) end, fun() -> atomics:new(2, [bad]) end,
           fun() -> atomics:new(a, []) end, fun() -> atomics:get(make_ref(), 1) end,
           fun() -> atomics:info(self()) end],
    [io:format("bad: ~p~n", [t(F)]) || F <- Bad],
    C = counters:new(4, []),
    W = counters:new(4, [write_concurrency]),
    io:format("counters info: ~p~n", [[counters:info(C), counters:info(W)]]),
    [begin
         ok = counters:add(R, 1, 5), ok = counters:sub(R, 1, 2), ok = counters:put(R, 2, -7),
         ok = counters:add(R, 3, (1 bsl 63) - 1), ok = counters:add(R, 3, 1),
         io:format("counters: ~p~n", [[counters:get(R, I) || I <- [1, 2, 3, 4]]])
     end || R <- [C, W]],
    [io:format("bad counters: ~p~n", [t(F)])
     || F <- [fun() -> counters:get(C, 5) end, fun() -> counters:add(W, 1, 1 bsl 64) end,
              fun() -> counters:new(2, [bad]) end, fun() -> counters:get(W, 0) end,
              fun() -> counters:get({bad, x}, 1) end]],
    Parent = self(),
    Shared = counters:new(1, [write_concurrency]),
    Ps = [spawn(fun() -> [counters:add(Shared, 1, 1) || _ <- lists:seq(1, 1000)], Parent ! done end)
          || _ <- lists:seq(1, 8)],
    [receive done -> ok end || _ <- Ps],
    io:format("concurrent adds: ~p~n", [counters:get(Shared, 1)]).
