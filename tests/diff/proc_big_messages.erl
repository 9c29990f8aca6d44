%% Large and shared terms in messages: big binaries, sub-binaries, deep
%% lists, maps, funs with environments; sent through several processes.
-module(proc_big_messages).
-export([main/0]).

main() ->
    Big = binary:copy(<<"0123456789">>, 100000),
    Sub = binary:part(Big, 5, 20),
    Deep = lists:foldl(fun(I, Acc) -> [I, Acc] end, [], lists:seq(1, 10000)),
    Map = maps:from_list([{I, integer_to_list(I)} || I <- lists:seq(1, 1000)]),
    Shared = {Sub, Sub, Sub},
    K = 7,
    Fun = fun(X) -> X * K end,
    Msg = {Big, Sub, Deep, Map, Shared, Fun, 1 bsl 200, 3.25},
    Echo = fun Loop() -> receive {From, M} -> From ! {echo, M}, Loop() end end,
    P1 = spawn(Echo),
    P2 = spawn(fun() -> receive {From, M} -> P1 ! {self(), M}, receive {echo, M2} -> From ! {echo, M2} end end end),
    P2 ! {self(), Msg},
    receive {echo, {B, S, D, M, {S1, S2, S3}, F, I, Fl}} ->
            io:format("big: ~p ~p~n", [byte_size(B), B =:= Big]),
            io:format("sub: ~p~n", [S]),
            io:format("deep: ~p~n", [D =:= Deep]),
            io:format("map: ~p ~p~n", [map_size(M), maps:get(500, M)]),
            io:format("shared: ~p~n", [S1 =:= S2 andalso S2 =:= S3]),
            io:format("fun: ~p~n", [F(6)]),
            io:format("int: ~p float: ~p~n", [I, Fl])
    end,
    %% Many messages in flight at once.
    P3 = spawn(fun() -> collect(self(), 0, 0) end),
    [P3 ! {n, X} || X <- lists:seq(1, 20000)],
    P3 ! {done, self()},
    receive {sum, Count, Sum} -> io:format("count ~p sum ~p~n", [Count, Sum]) end.

collect(Me, C, S) ->
    receive
        {n, X} -> collect(Me, C + 1, S + X);
        {done, From} -> From ! {sum, C, S}
    end.
