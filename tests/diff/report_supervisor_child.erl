%% A supervisor restarting a crashed child prints the child's crash report
%% and a supervisor report (child_terminated); reaching the restart
%% intensity prints a shutdown report and ends the supervisor.
-module(report_supervisor_child).
-behaviour(supervisor).
-export([main/0, init/1, start_child/0, child/0]).

main() ->
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link({local, rsc_sup}, ?MODULE, []),
    crash(Sup),
    io:format("restarted: ~p~n", [length(supervisor:which_children(Sup))]),
    crash(Sup),
    receive {'EXIT', Sup, Reason} -> logger_sync:wait(), io:format("supervisor exit: ~p~n", [Reason]) end,
    io:format("done~n").

crash(Sup) ->
    [{worker, Pid, _, _}] = supervisor:which_children(Sup),
    Ref = monitor(process, Pid),
    Pid ! crash,
    receive {'DOWN', Ref, process, Pid, _} -> ok end,
    _ = (catch supervisor:which_children(Sup)),
    logger_sync:wait().

init([]) ->
    {ok, {#{strategy => one_for_one, intensity => 1, period => 60},
          [#{id => worker, start => {?MODULE, start_child, []}}]}}.

start_child() ->
    {ok, proc_lib:spawn_link(?MODULE, child, [])}.

child() ->
    receive crash -> error(child_crashed) end.
