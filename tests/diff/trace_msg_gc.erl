%% erlang:trace/3 with garbage_collection: a process that builds garbage
%% reports collections as start/end pairs with the BEAM's info list. The
%% number of collections is the runtime's own business; the shape is not.
-module(trace_msg_gc).
-export([main/0]).

main() ->
    Self = self(),
    P = spawn(fun() -> receive go -> ok end, churn(20000, []), Self ! done end),
    1 = erlang:trace(P, true, [garbage_collection]),
    P ! go,
    receive done -> ok end,
    Events = trace_names:collect(),
    Tags = [element(3, E) || E <- Events],
    io:format("collected: ~p~n", [length(Events) >= 2]),
    io:format("paired: ~p~n", [paired(Tags)]),
    io:format("all about p: ~p~n", [lists:all(fun(E) -> element(2, E) =:= P end, Events)]),
    [{_, _, _, Info} | _] = Events,
    io:format("info keys: ~p~n", [lists:sort([K || {K, V} <- Info, is_integer(V)])]).

churn(0, Acc) -> length(Acc);
churn(N, Acc) -> churn(N - 1, [{N, integer_to_list(N)} | lists:sublist(Acc, 50)]).

paired([gc_minor_start, gc_minor_end | Rest]) -> paired(Rest);
paired([gc_major_start, gc_major_end | Rest]) -> paired(Rest);
paired([]) -> true;
paired(Other) -> {unpaired, Other}.
