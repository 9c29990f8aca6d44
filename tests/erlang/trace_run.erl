%% A run whose trace events are known in advance, for
%% beamr-cli/tests/trace_run.rs: `beamr run --trace send,receive,procs`.
-module(trace_run).
-export([main/0, child/1]).

main() ->
    C = spawn_link(?MODULE, child, [self()]),
    register(trace_run_child, C),
    trace_run_child ! {ping, 1},
    receive {pong, 1} -> ok end,
    unlink(C),
    C ! stop,
    receive {done, C} -> ok end,
    ok.

child(Parent) ->
    receive {ping, N} -> Parent ! {pong, N} end,
    receive stop -> Parent ! {done, self()} end.
