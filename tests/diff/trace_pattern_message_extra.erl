%% A message pattern's message(T) body action: the extra term ends the
%% send and 'receive' trace messages (after the receiver of a send, before
%% a timestamp), built from the pattern's variables and '$_'; message(true)
%% gives the plain message, message(false) none, and the last message/1 of
%% a body wins.
-module(trace_pattern_message_extra).
-export([main/0]).

main() ->
    Self = self(),
    P = spawn(fun() -> worker(Self) end),
    Names = #{P => p, Self => main},
    1 = erlang:trace(P, true, [send, 'receive']),
    1 = erlang:trace_pattern(send, [{'_', [], [{message, hello}]}], []),
    1 = erlang:trace_pattern('receive', [{['_', '_', {ping, '$1'}], [], [{message, {{got, '$1'}}}]},
                                         {'_', [], [{message, '$_'}]}], []),
    ping(P, 1),
    P ! other,
    sync(P),
    io:format("-- extra terms~n"),
    trace_names:print(Names),
    %% The receiver and the message as the send pattern sees them.
    1 = erlang:trace_pattern(send, [{['$1', {pong, '$2'}], [{'>', '$2', 1}], [{message, {{'$1', '$2'}}}]},
                                    {'_', [], [{message, false}]}], []),
    1 = erlang:trace_pattern('receive', [{'_', [], [{message, true}]}], []),
    ping(P, 1),
    ping(P, 2),
    sync(P),
    io:format("-- guards, message(false), message(true)~n"),
    trace_names:print(Names),
    %% The last message/1 of a body counts.
    1 = erlang:trace_pattern(send, [{'_', [], [{message, first}, {message, second}]}], []),
    1 = erlang:trace_pattern('receive', [{'_', [], [{message, x}, {message, false}]}], []),
    ping(P, 3),
    sync(P),
    io:format("-- last one wins~n"),
    trace_names:print(Names),
    %% With a timestamp, the extra term comes before it.
    1 = erlang:trace(P, true, [monotonic_timestamp]),
    1 = erlang:trace_pattern(send, [{'_', [], [{message, stamped}]}], []),
    1 = erlang:trace_pattern('receive', false, []),
    ping(P, 4),
    sync(P),
    io:format("-- with a timestamp~n"),
    [io:format("~p~n", [stamp(trace_names:name(T, Names))]) || T <- collect_ts()],
    P ! stop.

collect_ts() ->
    receive T when element(1, T) =:= trace_ts -> [T | collect_ts()] after 100 -> [] end.

stamp(T) ->
    Ts = element(tuple_size(T), T),
    setelement(tuple_size(T), T, is_integer(Ts)).

ping(P, N) ->
    P ! {ping, N},
    receive {pong, N} -> ok end.

sync(P) ->
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end.

worker(Parent) ->
    receive
        {ping, N} -> Parent ! {pong, N}, worker(Parent);
        other -> worker(Parent);
        stop -> ok
    end.
