%% supervisor: one_for_one restarts, which_children, count_children,
%% terminate_child/restart_child/delete_child, start_child.
%% Supervisor reports are turned off (they carry dates and pids).
-module(otp_supervisor).
-behaviour(supervisor).
-export([main/0, init/1, start_worker/1, worker/1]).

main() ->
    %% The reports come from other processes while this one prints on, in
    %% an order that varies from run to run on erl: off (report_* test them).
    ok = logger:set_primary_config(level, none),
    {ok, Sup} = supervisor:start_link({local, the_sup}, ?MODULE, one_for_one),
    io:format("children: ~p~n", [ids(Sup)]),
    io:format("count: ~p~n", [supervisor:count_children(Sup)]),
    A1 = child(Sup, a),
    B1 = child(Sup, b),
    exit(A1, crash),
    A2 = wait_new(Sup, a, A1),
    io:format("a restarted: ~p, b untouched: ~p~n", [A1 =/= A2, child(Sup, b) =:= B1]),
    %% worker ping through the registered name
    a ! {ping, self()},
    receive {pong, a} -> io:format("pong from restarted a~n") end,
    %% temporary child: not restarted.
    {ok, T} = supervisor:start_child(Sup, #{id => t, start => {?MODULE, start_worker, [t]},
                                             restart => temporary}),
    io:format("ids with t: ~p~n", [ids(Sup)]),
    Ref = monitor(process, T),
    exit(T, crash),
    receive {'DOWN', Ref, process, T, crash} -> ok end,
    timer:sleep(20),
    io:format("ids after t: ~p~n", [ids(Sup)]),
    %% transient child: restarted after an abnormal exit only.
    {ok, Tr} = supervisor:start_child(Sup, #{id => tr, start => {?MODULE, start_worker, [tr]},
                                              restart => transient}),
    exit(Tr, crash),
    Tr2 = wait_new(Sup, tr, Tr),
    Tr2 ! stop,
    wait_gone(Sup, tr),
    io:format("transient after normal exit: ~p~n", [lists:keyfind(tr, 1, children(Sup))]),
    %% terminate_child, restart_child, delete_child.
    io:format("terminate: ~p~n", [supervisor:terminate_child(Sup, b)]),
    io:format("b: ~p~n", [lists:keyfind(b, 1, children(Sup))]),
    {ok, B2} = supervisor:restart_child(Sup, b),
    io:format("restart: ~p~n", [is_pid(B2)]),
    io:format("delete running: ~p~n", [supervisor:delete_child(Sup, b)]),
    ok = supervisor:terminate_child(Sup, b),
    io:format("delete: ~p~n", [supervisor:delete_child(Sup, b)]),
    io:format("ids: ~p~n", [ids(Sup)]),
    io:format("unknown: ~p~n", [supervisor:terminate_child(Sup, nope)]),
    io:format("dup: ~p~n", [element(1, supervisor:start_child(Sup, #{id => a, start => {?MODULE, start_worker, [a]}}))]),
    io:format("count: ~p~n", [supervisor:count_children(Sup)]),
    unlink(Sup),
    Ref2 = monitor(process, Sup),
    exit(Sup, shutdown),
    receive {'DOWN', Ref2, process, Sup, R} -> io:format("sup down: ~p~n", [R]) end,
    io:format("a gone: ~p~n", [whereis(a)]).

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

wait_gone(Sup, Id) ->
    case lists:keyfind(Id, 1, children(Sup)) of
        {Id, undefined} -> ok;
        _ -> timer:sleep(2), wait_gone(Sup, Id)
    end.
