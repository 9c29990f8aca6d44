%% supervisor strategies: one_for_all and rest_for_one restarts, and the
%% restart intensity shutting the supervisor down.
-module(otp_supervisor_strategies).
-behaviour(supervisor).
-export([main/0, init/1, start_worker/1, worker/0]).
-import(logger_sync, [say/1, say/2]).

main() ->
    process_flag(trap_exit, true),
    %% one_for_all: one child dies, all are restarted.
    {ok, S1} = supervisor:start_link(?MODULE, {one_for_all, 5}),
    [A1, B1, C1] = pids(S1),
    exit(B1, crash),
    [A2, B2, C2] = wait_changed(S1, [A1, B1, C1]),
    say("one_for_all: ~p~n", [[A1 =/= A2, B1 =/= B2, C1 =/= C2]]),
    stop(S1),
    %% rest_for_one: the dead child and those after it are restarted.
    {ok, S2} = supervisor:start_link(?MODULE, {rest_for_one, 5}),
    [D1, E1, F1] = pids(S2),
    exit(E1, crash),
    [D2, E2, F2] = wait_changed(S2, [D1, E1, F1]),
    say("rest_for_one: ~p~n", [[D1 =/= D2, E1 =/= E2, F1 =/= F2]]),
    stop(S2),
    %% Intensity: more than 2 restarts in the period ends the supervisor
    %% with reason shutdown.
    {ok, S3} = supervisor:start_link(?MODULE, {one_for_one, 2}),
    kill_until_down(S3, 0),
    say("done~n").

kill_until_down(Sup, N) ->
    receive
        {'EXIT', Sup, Reason} ->
            say("supervisor exited: ~p after ~p kills~n", [Reason, N])
    after 0 ->
        case catch supervisor:which_children(Sup) of
            [{_, P, _, _} | _] when is_pid(P) ->
                exit(P, crash),
                wait_not(Sup, P),
                kill_until_down(Sup, N + 1);
            _ ->
                timer:sleep(1),
                kill_until_down(Sup, N)
        end
    end.

wait_not(Sup, P) ->
    case catch supervisor:which_children(Sup) of
        [{_, P, _, _} | _] -> timer:sleep(1), wait_not(Sup, P);
        _ -> ok
    end.

stop(Sup) ->
    exit(Sup, shutdown),
    receive {'EXIT', Sup, shutdown} -> ok end.

init({Strategy, Intensity}) ->
    Flags = #{strategy => Strategy, intensity => Intensity, period => 3600},
    {ok, {Flags, [#{id => Id, start => {?MODULE, start_worker, [Id]}} || Id <- [x, y, z]]}}.

start_worker(_Id) -> {ok, spawn_link(?MODULE, worker, [])}.

worker() -> receive stop -> ok end.

pids(Sup) ->
    %% which_children lists children in reverse start order.
    lists:reverse([P || {_, P, _, _} <- supervisor:which_children(Sup)]).

wait_changed(Sup, Old) ->
    New = pids(Sup),
    Ready = lists:all(fun is_pid/1, New) andalso
        lists:all(fun(P) -> is_process_alive(P) end, New) andalso
        New -- Old =/= [],
    case Ready of
        true -> timer:sleep(5), pids(Sup);
        false -> timer:sleep(1), wait_changed(Sup, Old)
    end.
