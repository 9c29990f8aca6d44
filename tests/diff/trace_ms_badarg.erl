%% erlang:trace_pattern/3's answers to bad arguments, as the BEAM gives
%% them: match specifications that do not compile for tracing, bad flag
%% lists, and flag combinations global does not allow.
-module(trace_ms_badarg).
-export([main/0, f/1]).

f(X) -> X.

try_pattern(Ms, Flags) ->
    R = try erlang:trace_pattern({?MODULE, f, 1}, Ms, Flags)
        catch C:E -> {C, E}
        end,
    io:format("~p ~p -> ~p~n", [Ms, Flags, R]).

main() ->
    try_pattern(foo, []),
    try_pattern([foo], []),
    try_pattern([{'_', [], []} | bad], []),
    try_pattern([{foo, [], []}], []),
    try_pattern([{[a | b], [], []}], []),
    try_pattern([{'_', [], [{nope}]}], []),
    try_pattern([{'_', [{caller}], []}], []),
    try_pattern([{'_', [{return_trace}], []}], []),
    try_pattern([{'_', [{message, 1}], []}], []),
    try_pattern([{'_', [], [{message, '$1'}]}], []),
    try_pattern([{'_', [], [{display, 1, 2}]}], []),
    try_pattern([{'_', [], [{return_trace, x}]}], []),
    try_pattern([{['$1'], [{foo}], []}], []),
    try_pattern([{['$1', '$2'], [], []}], []),
    try_pattern([{'_', [], [{enable_trace, nosuch}]}], []),
    try_pattern([{'_', [], [{self}, {node}, {abs, -1}]}], []),
    try_pattern(true, [bad]),
    try_pattern(true, bad),
    try_pattern(true, [global, local]),
    try_pattern(true, [global, meta]),
    try_pattern(true, [global, call_count]),
    try_pattern(true, [local, local]),
    try_pattern(true, [meta, call_time]),
    try_pattern(false, [local, meta, call_count, call_time]),
    try_mfa({'_', f, 1}),
    try_mfa({?MODULE, f, 256}),
    try_mfa({?MODULE, f, -1}),
    try_mfa({?MODULE, "f", 1}),
    try_mfa(nope).

try_mfa(MFA) ->
    R = try erlang:trace_pattern(MFA, true, []) catch C:E -> {C, E} end,
    io:format("~p -> ~p~n", [MFA, R]).
