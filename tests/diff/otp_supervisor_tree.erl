%% A supervision tree: a top supervisor with a worker and a nested
%% supervisor; restarts inside the subtree; shutdown order on stop.
-module(otp_supervisor_tree).
-behaviour(supervisor).
-export([main/0, init/1, start_worker/2, worker/2]).

main() ->
    register(main_proc, self()),
    {ok, Top} = supervisor:start_link({local, top}, ?MODULE, top),
    io:format("top: ~p~n", [[{Id, Type} || {Id, _, Type, _} <- supervisor:which_children(top)]]),
    {sub, Sub, supervisor, _} = lists:keyfind(sub, 1, supervisor:which_children(top)),
    io:format("sub: ~p~n", [lists:sort([Id || {Id, _, _, _} <- supervisor:which_children(Sub)])]),
    io:format("counts: ~p~n", [supervisor:count_children(top)]),
    flush_started(),
    %% A worker in the subtree restarts; the top is not involved.
    {w2, W2, _, _} = lists:keyfind(w2, 1, supervisor:which_children(Sub)),
    exit(W2, kill),
    %% The sub supervisor has logged the child's end before restarting it.
    receive {started, w2} -> logger_sync:wait(), io:format("w2 restarted~n") end,
    {sub, Sub, _, _} = lists:keyfind(sub, 1, supervisor:which_children(top)),
    io:format("sub unchanged~n"),
    %% Stopping the top stops everything, in reverse start order.
    unlink(Top),
    Ref = monitor(process, Top),
    exit(Top, shutdown),
    receive {'DOWN', Ref, process, Top, shutdown} -> ok end,
    io:format("stop order: ~p~n", [stopped([])]).

%% The four workers' first starts, whenever they run.
flush_started() ->
    [receive {started, Id} -> ok end || Id <- [w1, w2, w4, w3]],
    ok.

stopped(Acc) ->
    receive {stopped, Id} -> stopped([Id | Acc]) after 100 -> lists:reverse(Acc) end.

init(top) ->
    {ok, {#{strategy => one_for_one},
          [#{id => w1, start => {?MODULE, start_worker, [w1, self()]}},
           #{id => sub, start => {supervisor, start_link, [?MODULE, sub]}, type => supervisor},
           #{id => w3, start => {?MODULE, start_worker, [w3, self()]}}]}};
init(sub) ->
    {ok, {#{strategy => one_for_one},
          [#{id => Id, start => {?MODULE, start_worker, [Id, self()]}} || Id <- [w2, w4]]}}.

start_worker(Id, _Sup) ->
    Pid = spawn_link(?MODULE, worker, [Id, whereis(main_proc)]),
    {ok, Pid}.

worker(Id, Main) ->
    process_flag(trap_exit, true),
    Main ! {started, Id},
    receive
        {'EXIT', _, shutdown} -> Main ! {stopped, Id}
    end.
