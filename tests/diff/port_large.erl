-module(port_large).
-export([main/0]).

%% A megabyte through cat, as binaries and as lists: all of it comes back,
%% in order.
main() ->
    Data = << <<(I rem 251)>> || I <- lists:seq(1, 1000000) >>,
    P = open_port({spawn, "cat"}, [binary]),
    Self = self(),
    %% A writer of its own, so the reads keep up with the writes.
    spawn(fun() -> feed(P, Data, Self) end),
    Back = collect(P, byte_size(Data), []),
    io:format("binary: ~p bytes, same ~p~n", [byte_size(Back), Back =:= Data]),
    port_close(P),
    L = open_port({spawn, "cat"}, []),
    spawn(fun() -> feed(L, Data, Self) end),
    BackL = collect(L, byte_size(Data), []),
    io:format("list: ~p bytes, same ~p~n", [byte_size(BackL), BackL =:= Data]),
    port_close(L),
    receive {fed, _} -> ok end,
    receive {fed, _} -> ok end,
    ok.

feed(P, <<Chunk:10000/binary, Rest/binary>>, To) ->
    port_command(P, Chunk),
    feed(P, Rest, To);
feed(P, Rest, To) ->
    port_command(P, Rest),
    To ! {fed, P}.

collect(_P, 0, Acc) ->
    iolist_to_binary(lists:reverse(Acc));
collect(P, Left, Acc) ->
    receive
        {P, {data, D}} -> collect(P, Left - iolist_size(D), [D | Acc])
    after 10000 -> iolist_to_binary(lists:reverse(Acc))
    end.
