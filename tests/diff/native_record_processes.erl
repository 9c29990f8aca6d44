%% diff-requires-otp: 29
-module(native_record_processes).
%% Native records sent between processes, stored in ETS (as keys and
%% values, matched and selected), and kept alive across many garbage
%% collections.
-export([main/0]).

-record #item{id, name = <<"none">>, tags = []}.

loop() ->
    receive
        {From, #item{id = Id} = I} ->
            From ! {self(), I#item{tags = [seen | I#item.tags], id = Id + 1}},
            loop();
        stop ->
            ok
    end.

churn(0, Acc) -> Acc;
churn(N, Acc) ->
    R = #item{id = N, name = integer_to_binary(N), tags = lists:seq(1, N rem 7)},
    _ = [#item{id = X} || X <- lists:seq(1, 20)],
    churn(N - 1, [R | lists:sublist(Acc, 50)]).

main() ->
    Pid = spawn(fun loop/0),
    Pid ! {self(), #item{id = 1, name = <<"first">>}},
    receive {Pid, Back} -> io:format("~p~n", [Back]) end,
    Pid ! stop,
    T = ets:new(t, [set]),
    true = ets:insert(T, [{#item{id = I}, I * 10} || I <- lists:seq(1, 5)]),
    true = ets:insert(T, {key, #item{id = 99, tags = [x]}}),
    io:format("~p~n", [[ets:lookup(T, #item{id = 3}), ets:lookup(T, key),
                        ets:member(T, #item{id = 6}), ets:info(T, size)]]),
    io:format("~p~n", [lists:sort(ets:select(T, [{{'$1', '$2'}, [{'>', '$2', 30}], ['$2']}]))]),
    Kept = churn(3000, []),
    erlang:garbage_collect(),
    io:format("~p ~p~n", [length(Kept), hd(Kept)]),
    io:format("~p~n", [lists:sum([I || #item{id = I} <- Kept])]),
    ok.
