%% spawn_opt options and process flags: priority, min_heap_size,
%% fullsweep_after, message_queue_data; process_flag return values.
-module(proc_spawn_opt).
-export([main/0]).

main() ->
    Self = self(),
    Opts = [[{priority, high}], [{min_heap_size, 1000}], [{fullsweep_after, 10}],
            [{message_queue_data, off_heap}], [link, {priority, low}]],
    [begin
         P = spawn_opt(fun() -> Self ! {ok, self()} end, O),
         receive {ok, P} -> io:format("~p: ran~n", [O]) end
     end || O <- Opts],
    process_flag(trap_exit, true),
    receive {'EXIT', _, normal} -> io:format("linked one exited~n") end,
    io:format("priority: ~p ~p~n", [process_flag(priority, high), process_flag(priority, normal)]),
    io:format("bad option: ~p~n", [try spawn_opt(fun() -> ok end, [bogus]) catch error:E -> E end]),
    io:format("bad priority: ~p~n", [try process_flag(priority, urgent) catch error:E2 -> E2 end]),
    {P2, R2} = spawn_opt(fun() -> exit(done) end, [monitor]),
    receive {'DOWN', R2, process, P2, done} -> io:format("monitor option~n") end,
    io:format("done~n").
