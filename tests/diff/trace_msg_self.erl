%% 'receive' trace events for messages a process's own actions put in its
%% mailbox: a send to itself, the 'DOWN' of a monitor on a dead process,
%% the 'EXIT' of a link to a dead process when trapping exits.
-module(trace_msg_self).
-export([main/0]).

main() ->
    Self = self(),
    Dead = spawn(fun() -> ok end),
    DeadRef = monitor(process, Dead),
    receive {'DOWN', DeadRef, process, Dead, _} -> ok end,
    P = spawn(fun() -> worker(Self, Dead) end),
    1 = erlang:trace(P, true, ['receive']),
    P ! go,
    receive done -> ok end,
    trace_names:print(#{P => p, Self => main, Dead => dead}).

worker(Main, Dead) ->
    receive go -> ok end,
    self() ! to_myself,
    receive to_myself -> ok end,
    Ref = monitor(process, Dead),
    receive {'DOWN', Ref, process, Dead, _} -> ok end,
    process_flag(trap_exit, true),
    link(Dead),
    receive {'EXIT', Dead, _} -> ok end,
    Main ! done.
