%% Mailbox order, selective receive, and receive with guards.
-module(proc_receive_order).
-export([main/0]).

main() ->
    Self = self(),
    [Self ! {msg, N} || N <- lists:seq(1, 5)],
    Self ! {other, a},
    Self ! {msg, 6},
    %% Selective: take the 'other' message first, leaving the rest in order.
    receive {other, X} -> io:format("other ~p~n", [X]) end,
    io:format("drained ~p~n", [drain([])]),
    %% Guards in receive patterns.
    [Self ! N || N <- [7, 2, 9, 4, 10]],
    Big = receive N when N > 8 -> N end,
    Even = receive E when E rem 2 =:= 0 -> E end,
    io:format("big ~p even ~p rest ~p~n", [Big, Even, drain([])]),
    %% Receive matching a bound variable.
    Tag = make_ref(),
    Self ! {reply, other_tag, 1},
    Self ! {reply, Tag, 2},
    receive {reply, Tag, V} -> io:format("tagged ~p~n", [V]) end,
    io:format("left ~p~n", [drain([])]),
    %% Messages from several processes arrive in per-sender order.
    Pids = [spawn(fun() -> [Self ! {I, J} || J <- lists:seq(1, 4)] end) || I <- [a, b, c]],
    Got = [receive {I, J} -> {I, J} end || I <- [a, b, c], J <- lists:seq(1, 4)],
    io:format("~p ~p~n", [length(Pids), Got]).

drain(Acc) ->
    receive M -> drain([M | Acc]) after 0 -> lists:reverse(Acc) end.
