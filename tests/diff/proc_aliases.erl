%% Process aliases: alias/0, send through an alias, unalias, the
%% monitor alias option used for replies, reply-once aliases.
-module(proc_aliases).
-export([main/0]).

main() ->
    A = alias(),
    io:format("is ref: ~p~n", [is_reference(A)]),
    Self = self(),
    spawn(fun() -> A ! {via_alias, 1} end),
    receive {via_alias, N} -> io:format("received ~p~n", [N]) end,
    io:format("unalias: ~p ~p~n", [unalias(A), unalias(A)]),
    spawn(fun() -> A ! {via_alias, 2}, Self ! sent end),
    receive sent -> ok end,
    receive {via_alias, _} -> io:format("unexpected~n") after 30 -> io:format("dropped after unalias~n") end,
    %% reply: the alias works once.
    R = alias([reply]),
    P = spawn(fun() -> receive go -> R ! first, R ! second, Self ! done end end),
    P ! go,
    receive done -> ok end,
    timer:sleep(10),
    io:format("reply alias: ~p~n", [flush()]),
    %% A monitor with an alias, as gen:call uses it.
    Server = spawn(fun() -> receive {req, To} -> To ! {reply, ok} end, receive after 50 -> ok end end),
    M = monitor(process, Server, [{alias, demonitor}]),
    Server ! {req, M},
    receive {reply, ok} -> io:format("reply through monitor alias~n") end,
    true = demonitor(M, [flush]),
    spawn(fun() -> M ! late end),
    receive late -> io:format("unexpected late~n") after 30 -> io:format("alias gone with demonitor~n") end,
    %% An alias of another process cannot be removed here.
    Other = spawn(fun() -> B = alias(), Self ! {alias, B}, receive stop -> ok end end),
    B = receive {alias, X} -> X end,
    io:format("unalias other's: ~p~n", [unalias(B)]),
    Other ! stop,
    io:format("badarg: ~p~n", [try unalias(self()) catch error:E -> E end]).

flush() -> receive Msg -> [Msg | flush()] after 0 -> [] end.
