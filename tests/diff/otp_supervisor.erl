%% supervisor: one_for_one restarts, which_children, count_children,
%% terminate_child/restart_child/delete_child, start_child.
%% Supervisor reports are on: say/2 writes them first (the harness masks
%% their dates and pids).
-module(otp_supervisor).
-behaviour(supervisor).
-export([main/0, init/1, start_worker/1, worker/1]).
-import(logger_sync, [say/1, say/2]).

main() ->
    {ok, Sup} = supervisor:start_link({local, the_sup}, ?MODULE, one_for_one),
    say("children: ~p~n", [ids(Sup)]),
    say("count: ~p~n", [supervisor:count_children(Sup)]),
    A1 = child(Sup, a),
    B1 = child(Sup, b),
    exit(A1, crash),
    A2 = wait_new(Sup, a, A1),
    say("a restarted: ~p, b untouched: ~p~n", [A1 =/= A2, child(Sup, b) =:= B1]),
    %% worker ping through the registered name
    a ! {ping, self()},
    receive {pong, a} -> say("pong from restarted a~n") end,
    %% temporary child: not restarted.
    {ok, T} = supervisor:start_child(Sup, #{id => t, start => {?MODULE, start_worker, [t]},
                                             restart => temporary}),
    say("ids with t: ~p~n", [ids(Sup)]),
    Ref = monitor(process, T),
    exit(T, crash),
    receive {'DOWN', Ref, process, T, crash} -> ok end,
    %% The supervisor drops it when it has handled the 'EXIT'.
    wait_removed(Sup, t),
    say("ids after t: ~p~n", [ids(Sup)]),
    %% transient child: restarted after an abnormal exit only.
    {ok, Tr} = supervisor:start_child(Sup, #{id => tr, start => {?MODULE, start_worker, [tr]},
                                              restart => transient}),
    exit(Tr, crash),
    Tr2 = wait_new(Sup, tr, Tr),
    Tr2 ! stop,
    wait_gone(Sup, tr),
    say("transient after normal exit: ~p~n", [lists:keyfind(tr, 1, children(Sup))]),
    %% terminate_child, restart_child, delete_child.
    say("terminate: ~p~n", [supervisor:terminate_child(Sup, b)]),
    say("b: ~p~n", [lists:keyfind(b, 1, children(Sup))]),
    {ok, B2} = supervisor:restart_child(Sup, b),
    say("restart: ~p~n", [is_pid(B2)]),
    say("delete running: ~p~n", [supervisor:delete_child(Sup, b)]),
    ok = supervisor:terminate_child(Sup, b),
    say("delete: ~p~n", [supervisor:delete_child(Sup, b)]),
    say("ids: ~p~n", [ids(Sup)]),
    say("unknown: ~p~n", [supervisor:terminate_child(Sup, nope)]),
    say("dup: ~p~n", [element(1, supervisor:start_child(Sup, #{id => a, start => {?MODULE, start_worker, [a]}}))]),
    say("count: ~p~n", [supervisor:count_children(Sup)]),
    unlink(Sup),
    Ref2 = monitor(process, Sup),
    exit(Sup, shutdown),
    receive {'DOWN', Ref2, process, Sup, R} -> say("sup down: ~p~n", [R]) end,
    say("a gone: ~p~n", [whereis(a)]).

init(Strategy) ->
    Flags = #{strategy => Strategy, intensity => 5, period => 10},
    {ok, {Flags, [#{id => Id, start => {?MODULE, start_worker, [Id]}} || Id <- [a, b]]}}.

start_worker(Name) ->
    Pid = spawn_link(?MODULE, worker, [Name]),
    case Name of
        a -> register(a, Pid);
        _ -> ok
    end,
    {ok, Pid}.

worker(Name) ->
    receive
        {ping, From} -> From ! {pong, Name}, worker(Name);
        stop -> ok
    end.

children(Sup) -> [{Id, P} || {Id, P, _, _} <- supervisor:which_children(Sup)].
ids(Sup) -> lists:sort([Id || {Id, _} <- children(Sup)]).
child(Sup, Id) -> {Id, P} = lists:keyfind(Id, 1, children(Sup)), P.

wait_new(Sup, Id, Old) ->
    case lists:keyfind(Id, 1, children(Sup)) of
        {Id, P} when is_pid(P), P =/= Old -> P;
        _ -> timer:sleep(2), wait_new(Sup, Id, Old)
    end.

wait_removed(Sup, Id) ->
    case lists:keymember(Id, 1, children(Sup)) of
        false -> ok;
        true -> timer:sleep(2), wait_removed(Sup, Id)
    end.

wait_gone(Sup, Id) ->
    case lists:keyfind(Id, 1, children(Sup)) of
        {Id, undefined} -> ok;
        _ -> timer:sleep(2), wait_gone(Sup, Id)
    end.
