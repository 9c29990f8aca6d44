%% A two-level supervision tree for beamr-cli/tests/trace_otel.rs: run with
%% `--trace procs --trace-to otel`, its tree is rebuilt from the exported log
%% records alone and compared with what this program prints
%% (`supervisor:which_children/1` of each supervisor).
-module(otel_sup_tree).
-behaviour(supervisor).
-export([main/0, init/1, start_worker/0, worker/0]).

main() ->
    {ok, Top} = supervisor:start_link({local, otel_sup_top}, ?MODULE, top),
    print(Top),
    [Sub] = [P || {sub, P, supervisor, _} <- supervisor:which_children(Top)],
    print(Sub),
    unlink(Top),
    Ref = monitor(process, Top),
    exit(Top, shutdown),
    receive {'DOWN', Ref, process, Top, _} -> ok end.

print(Sup) ->
    Kids = lists:sort([P || {_, P, _, _} <- supervisor:which_children(Sup)]),
    io:format("~p ~w~n", [Sup, Kids]).

init(top) ->
    {ok, {#{strategy => one_for_one},
          [#{id => w1, start => {?MODULE, start_worker, []}},
           #{id => sub, start => {supervisor, start_link, [?MODULE, sub]},
             type => supervisor}]}};
init(sub) ->
    {ok, {#{strategy => one_for_all},
          [#{id => w2, start => {?MODULE, start_worker, []}},
           #{id => w3, start => {?MODULE, start_worker, []}}]}}.

start_worker() ->
    {ok, proc_lib:spawn_link(?MODULE, worker, [])}.

worker() ->
    receive stop -> ok end.
