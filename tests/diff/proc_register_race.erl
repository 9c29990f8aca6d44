%% Many processes racing to register one name: exactly one wins; the name
%% is free again when the winner exits.
-module(proc_register_race).
-export([main/0]).

main() ->
    Self = self(),
    N = 50,
    Pids = [spawn(fun() ->
                          Result = try register(the_name, self()) catch error:badarg -> lost end,
                          Self ! {self(), Result},
                          receive stop -> ok end
                  end) || _ <- lists:seq(1, N)],
    Results = [receive {P, R} -> R end || P <- Pids],
    io:format("winners: ~p losers: ~p~n",
              [length([x || true <- Results]), length([x || lost <- Results])]),
    Winner = whereis(the_name),
    io:format("winner is one of them: ~p~n", [lists:member(Winner, Pids)]),
    Ref = monitor(process, Winner),
    Winner ! stop,
    receive {'DOWN', Ref, process, Winner, normal} -> ok end,
    io:format("after exit: ~p~n", [whereis(the_name)]),
    [P ! stop || P <- Pids, P =/= Winner],
    io:format("registered again: ~p~n", [register(the_name, self())]).
