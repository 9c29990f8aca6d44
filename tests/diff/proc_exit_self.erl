%% Exit signals a process sends itself: exit(self(), Reason) ends a process
%% that does not trap exits at once, kill included; normal does nothing.
-module(proc_exit_self).
-export([main/0]).

main() ->
    Self = self(),
    Cases = [normal, kill, shutdown, {custom, 1}],
    [begin
         {P, R} = spawn_monitor(fun() ->
                                        exit(self(), Reason),
                                        Self ! {survived, Reason},
                                        receive after 50 -> ok end
                                end),
         %% What P sent comes before its 'DOWN': then survived or not.
         receive {'DOWN', R, process, P, Why} ->
                 Survived = receive {survived, Reason} -> yes after 0 -> no end,
                 io:format("~p: survived ~p, down ~p~n", [Reason, Survived, Why])
         end
     end || Reason <- Cases],
    %% Trapping: the signal becomes a message; kill still kills.
    {P2, R2} = spawn_monitor(fun() ->
                                     process_flag(trap_exit, true),
                                     exit(self(), custom),
                                     receive {'EXIT', Me, custom} when Me =:= self() ->
                                             Self ! got_message
                                     end,
                                     exit(self(), kill),
                                     Self ! not_reached
                             end),
    receive got_message -> io:format("trapped own exit signal~n") end,
    receive {'DOWN', R2, process, P2, W2} -> io:format("then: ~p~n", [W2]) end,
    receive not_reached -> io:format("unexpected~n") after 50 -> ok end,
    io:format("done~n").
