%% Meta trace patterns (messages to a meta tracer whatever the process's
%% flags, with timestamps, return_trace in the meta match specification),
%% call_count (pause, restart, counts of local calls) and call_time
%% (counts per process), read back with erlang:trace_info/2.
-module(trace_meta_counts).
-export([main/0, f/1, g/1]).

f(X) -> loc(X) + 1.
loc(X) -> X * 2.
g(X) -> X.

main() ->
    Self = self(),
    W = spawn(fun() -> loop() end),
    Ms = [{'_', [], [{return_trace}, {message, hi}]}],
    io:format("meta f: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, Ms, [{meta, Self}])]),
    io:format("meta loc: ~p~n", [erlang:trace_pattern({?MODULE, loc, 1}, true, [meta])]),
    io:format("count: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, true, [call_count])]),
    io:format("time: ~p~n", [erlang:trace_pattern({?MODULE, g, 1}, true, [call_time])]),
    W ! {run, Self, fun() -> ?MODULE:f(1), ?MODULE:f(2), ?MODULE:g(3), ?MODULE:g(4) end},
    receive ran -> ok end,
    Msgs = collect(),
    [io:format("~p~n", [trace_names:name(strip_ts(M), #{W => w, Self => main})]) || M <- Msgs],
    io:format("all have timestamps: ~p~n",
              [lists:all(fun(M) -> element(1, M) =:= trace_ts andalso is_tuple(element(tuple_size(M), M)) end, Msgs)]),
    Info = fun(F, Item) -> trace_names:name(erlang:trace_info({?MODULE, F, 1}, Item), #{W => w, Self => main}) end,
    [io:format("~p ~p: ~p~n", [F, I, Info(F, I)])
     || F <- [f, loc], I <- [traced, match_spec, meta, meta_match_spec, call_count]],
    io:format("g call_count: ~p~n", [Info(g, call_count)]),
    {call_time, Times} = erlang:trace_info({?MODULE, g, 1}, call_time),
    io:format("g call_time: ~p~n",
              [[{trace_names:name(P, #{W => w}), C, is_integer(S) andalso S >= 0, is_integer(U) andalso U >= 0} || {P, C, S, U} <- Times]]),
    %% call_time counts only processes traced with call.
    1 = erlang:trace(W, true, [call]),
    W ! {run, Self, fun() -> ?MODULE:g(3), ?MODULE:g(4), ?MODULE:g(5) end},
    receive ran -> ok end,
    {call_time, Times2} = erlang:trace_info({?MODULE, g, 1}, call_time),
    io:format("g call_time, traced: ~p~n",
              [[{trace_names:name(P, #{W => w}), C, is_integer(S) andalso S >= 0, is_integer(U) andalso U >= 0} || {P, C, S, U} <- Times2]]),
    1 = erlang:trace(W, false, [call]),
    io:format("pause: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, pause, [call_count])]),
    W ! {run, Self, fun() -> ?MODULE:f(1) end},
    receive ran -> ok end,
    io:format("f after pause: ~p~n", [Info(f, call_count)]),
    io:format("restart: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, restart, [call_count])]),
    io:format("f after restart: ~p~n", [Info(f, call_count)]),
    W ! {run, Self, fun() -> ?MODULE:f(1) end},
    receive ran -> ok end,
    io:format("f counted again: ~p~n", [Info(f, call_count)]),
    _ = collect(),
    io:format("off: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false, [meta, call_count, call_time])]),
    io:format("f all: ~p~n", [Info(f, all)]),
    io:format("global clears the others: ~p~n",
              [{erlang:trace_pattern({?MODULE, g, 1}, true, [call_count]),
                erlang:trace_pattern({?MODULE, g, 1}, true, [global]),
                Info(g, all)}]).

strip_ts(M) -> list_to_tuple(lists:droplast(tuple_to_list(M))).

collect() ->
    receive T when element(1, T) =:= trace_ts -> [T | collect()] after 100 -> [] end.

loop() -> receive {run, From, F} -> F(), From ! ran, loop() end.
