%% Tracing match specifications in global call patterns: heads matching
%% the argument list, guards, message/1 (false suppresses, true is the
%% plain message, anything else is added to it), '$_', a body call that
%% raises ('EXIT'), and display/1. Pids are named.
-module(trace_ms_message).
-export([main/0, f/1, g/2]).

f(X) -> X + 1.
g(A, B) -> {A, B}.

main() ->
    Specs = [
        [{'_', [], [{message, false}]}],
        [{'_', [], [{message, true}]}],
        [{'_', [], [{message, hello}]}],
        [{'_', [], [{message, {self}}]}],
        [{'_', [], [hello]}],
        [{'_', [], [{message, hello}, {message, true}]}],
        [{'_', [], [{message, hello}, {message, false}, ok]}],
        [{['$1'], [], [{message, '$1'}]}],
        [{['$1', '_'], [], [{message, {{'$1', '$_'}}}]}],
        [{'$1', [], [{message, '$1'}]}],
        [{['$1'], [{'>', '$1', 1}], [{message, big}]}, {'_', [], [{message, small}]}],
        [{['$1', '$1'], [], []}],
        [{[a, '_'], [], [{message, first_is_a}]}],
        [{'_', [{'==', {self}, {self}}], [{message, {const, {x, y}}}]}],
        [{'_', [], [{message, {element, 1, '$_'}}]}],
        [{'_', [], [{message, {hd, x}}]}],
        [{'_', [], [{hd, x}]}],
        [{'_', [], [{message, a}, {hd, x}]}],
        [{'_', [], [{message, {display, shown}}]}],
        [{{a, '_'}, [], [{message, tuple_head}]}],
        [],
        [{'_', [], []}]
    ],
    lists:foreach(fun run/1, Specs).

run(Spec) ->
    Self = self(),
    W = spawn(fun() -> receive go -> ok end, ?MODULE:f(1), ?MODULE:f(5), ?MODULE:g(a, b), ?MODULE:g(c, c), Self ! done end),
    1 = erlang:trace(W, true, [call]),
    N = erlang:trace_pattern({?MODULE, '_', '_'}, Spec, []),
    W ! go,
    receive done -> ok end,
    %% Printed after the calls: display/1 writes straight to the terminal,
    %% so a line printed through the io server before it could come after.
    io:format("~p: ~p~n", [Spec, N]),
    trace_names:print(#{W => w, Self => main}).
