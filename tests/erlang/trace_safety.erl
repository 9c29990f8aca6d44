%% beamr-cli/tests/trace_safety.rs: what keeps tracing from taking a run
%% down. main/0: two tracers trace each other's receives (on the BEAM each
%% trace message one gets makes one for the other, forever; beamr never
%% traces a trace message's arrival). busy/0: many events, for the limits.
-module(trace_safety).
-export([main/0, busy/0]).

main() ->
    Self = self(),
    A = spawn(fun() -> forward(Self) end),
    B = spawn(fun() -> forward(Self) end),
    1 = erlang:trace(A, true, ['receive', {tracer, B}]),
    1 = erlang:trace(B, true, ['receive', {tracer, A}]),
    A ! {note, hello},
    timer:sleep(200),
    Got = collect(),
    io:format("forwarded ~p: ~p~n", [length(Got), lists:sort([M || {_, M} <- Got, not is_tuple(M) orelse element(1, M) =/= trace])]),
    exit(A, kill),
    exit(B, kill).

forward(To) ->
    receive M -> To ! {forwarded, self(), M}, forward(To) end.

collect() ->
    receive {forwarded, By, M} -> [{By, M} | collect()] after 100 -> [] end.

busy() ->
    P = spawn(fun Loop() -> receive {From, N} -> From ! N, Loop() end end),
    [begin P ! {self(), N}, receive N -> ok end end || N <- lists:seq(1, 2000)],
    io:format("done~n").
