%% beamr-cli/tests/trace_safety.rs: what keeps tracing from taking a run
%% down. main/0: two tracers trace each other's receives (on the BEAM each
%% trace message one gets makes one for the other, forever; beamr never
%% traces a trace message's arrival). busy/0: many events, for the limits.
%% flood/0: a tracer that counts a flood of trace messages without
%% allocating keeps none of those it took (its memory once drained).
-module(trace_safety).
-export([main/0, busy/0, flood/0]).

main() ->
    Self = self(),
    A = spawn(fun() -> forward(Self) end),
    B = spawn(fun() -> forward(Self) end),
    1 = erlang:trace(A, true, ['receive', {tracer, B}]),
    1 = erlang:trace(B, true, ['receive', {tracer, A}]),
    A ! {note, hello},
    %% The two forwards come however slow the machine; then 100 ms with
    %% nothing more shows there is no loop (one would send more at once).
    First = [receive {forwarded, By, M} -> {By, M} end || _ <- [1, 2]],
    Got = First ++ collect(),
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

flood() ->
    Self = self(),
    Tracer = spawn(fun() -> count(0) end),
    Workers = [spawn(fun() -> worker(Self) end) || _ <- lists:seq(1, 20)],
    [erlang:trace(W, true, [send, 'receive', {tracer, Tracer}]) || W <- Workers],
    [W ! {go, 2000} || W <- Workers],
    [receive {done, W} -> ok end || W <- Workers],
    drained(Tracer),
    {memory, Bytes} = process_info(Tracer, memory),
    io:format("tracer memory ~p bytes~n", [Bytes]),
    Tracer ! {stop, Self},
    receive {count, N} -> io:format("trace messages ~p~n", [N]) end.

worker(Parent) ->
    receive {go, N} -> ping(N), Parent ! {done, self()} end.

ping(0) -> ok;
ping(N) -> self() ! {ping, N}, receive {ping, N} -> ping(N - 1) end.

%% Allocates nothing until told to stop.
count(N) ->
    receive
        {stop, From} -> From ! {count, N};
        _ -> count(N + 1)
    end.

drained(P) ->
    case process_info(P, [message_queue_len, status]) of
        [{message_queue_len, 0}, {status, waiting}] -> ok;
        _ -> timer:sleep(10), drained(P)
    end.
