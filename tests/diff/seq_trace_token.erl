%% seq_trace's token on one process: set_token/1,2, get_token/0,1,
%% print/1,2 without a system tracer, the BIFs' badargs, and what
%% process_info shows.
-module(seq_trace_token).
-export([main/0]).

try_(F) -> try F() of V -> {ok, V} catch C:R -> {C, R} end.

main() ->
    Me = self(),
    Steps =
        [try_(fun() -> seq_trace:get_token() end),
         try_(fun() -> [seq_trace:get_token(I) || I <- [label, serial, send, 'receive', print,
                                                    timestamp, monotonic_timestamp,
                                                    strict_monotonic_timestamp, spawn]] end),
         try_(fun() -> seq_trace:get_token(foo) end),
         try_(fun() -> seq_trace:get_token("label") end),
         try_(fun() -> erlang:seq_trace_print(nothing) end),
         try_(fun() -> seq_trace:print(1, nothing) end),
         %% The first component set makes a fresh token.
         try_(fun() -> seq_trace:set_token(label, 17) end),
         try_(fun() -> seq_trace:get_token() end),
         try_(fun() -> seq_trace:set_token(send, true) end),
         try_(fun() -> seq_trace:set_token(send, true) end),
         try_(fun() -> seq_trace:set_token('receive', true) end),
         try_(fun() -> seq_trace:set_token(print, true) end),
         try_(fun() -> seq_trace:set_token(timestamp, true) end),
         try_(fun() -> seq_trace:set_token(timestamp, false) end),
         try_(fun() -> seq_trace:set_token(monotonic_timestamp, true) end),
         try_(fun() -> seq_trace:set_token(strict_monotonic_timestamp, true) end),
         try_(fun() -> seq_trace:get_token() end),
         try_(fun() -> [seq_trace:get_token(I) || I <- [label, serial, send, 'receive', print,
                                                    timestamp, monotonic_timestamp,
                                                    strict_monotonic_timestamp]] end),
         try_(fun() -> seq_trace:get_token(spawn) end),
         %% Printing stamps the token even with no system tracer.
         try_(fun() -> erlang:seq_trace_print(hello) end),
         try_(fun() -> erlang:seq_trace_print(17, hello) end),
         try_(fun() -> erlang:seq_trace_print(18, hello) end),
         try_(fun() -> erlang:seq_trace_print(17.0, hello) end),
         try_(fun() -> seq_trace:get_token(serial) end),
         try_(fun() -> seq_trace:print(17, again) end),
         try_(fun() -> seq_trace:print(some_atom, again) end),
         try_(fun() -> seq_trace:set_token(serial, {10, 20}) end),
         try_(fun() -> seq_trace:print(17, after_serial) end),
         try_(fun() -> seq_trace:get_token() end),
         %% Any term is a label.
         try_(fun() -> seq_trace:set_token(label, {a, "b", [c]}) end),
         try_(fun() -> erlang:seq_trace_print({a, "b", [c]}, x) end),
         try_(fun() -> erlang:seq_trace_print({a, "b", [d]}, x) end),
         try_(fun() -> process_info(Me, sequential_trace_token) end),
         %% Bad arguments.
         try_(fun() -> seq_trace:set_token(foo, true) end),
         try_(fun() -> seq_trace:set_token(send, yes) end),
         try_(fun() -> seq_trace:set_token(serial, {1}) end),
         try_(fun() -> seq_trace:set_token(serial, {a, 1}) end),
         try_(fun() -> seq_trace:set_token(serial, [1, 2]) end),
         try_(fun() -> seq_trace:set_token(sequential_trace_token, x) end),
         try_(fun() -> erlang:seq_trace("send", true) end),
         try_(fun() -> seq_trace:set_token({1, 2, 3}) end),
         %% set_token([]) returns the old token and empties it.
         try_(fun() -> seq_trace:set_token([]) end),
         try_(fun() -> seq_trace:get_token() end),
         try_(fun() -> seq_trace:set_token([]) end),
         %% set_token/1 with a whole token.
         try_(fun() -> seq_trace:set_token({5, lbl, 9, Me, 4}) end),
         try_(fun() -> seq_trace:get_token() end),
         try_(fun() -> seq_trace:get_token(serial) end),
         try_(fun() -> erlang:seq_trace(sequential_trace_token, []) end),
         try_(fun() -> process_info(Me, sequential_trace_token) end)],
    [io:format("~p~n", [trace_names:name(S, #{Me => me})]) || S <- Steps],
    ok.
