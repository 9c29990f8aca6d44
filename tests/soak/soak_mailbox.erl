%% Ten million messages in one mailbox: all queued before the first is
%% read, then received in order. Prints the queue length it reached, how
%% many arrived and their sum, then the length once drained.
-module(soak_mailbox).
-export([main/0]).

-define(COUNT, 10000000).

main() ->
    Self = self(),
    send(Self, 1),
    {message_queue_len, Queued} = process_info(Self, message_queue_len),
    {Received, Sum} = drain(1, 0, 0),
    {message_queue_len, Left} = process_info(Self, message_queue_len),
    io:format("queued ~w received ~w sum ~w left ~w~n", [Queued, Received, Sum, Left]).

send(_, N) when N > ?COUNT -> ok;
send(To, N) ->
    To ! {n, N},
    send(To, N + 1).

%% Each message must be the next number: the mailbox keeps its order.
drain(Next, Count, Sum) when Next > ?COUNT -> {Count, Sum};
drain(Next, Count, Sum) ->
    receive
        {n, Next} -> drain(Next + 1, Count + 1, Sum + Next);
        {n, Other} -> {out_of_order, Next, Other}
    after 0 -> {missing, Next, Count}
    end.
