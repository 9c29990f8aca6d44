%% Message patterns: erlang:trace_pattern(send | 'receive', MS, []) with
%% match specifications over [Receiver, Msg] and [Node, Sender, Msg], the
%% patterns trace_info reports, false (no events at all), true (every
%% event again), message(false) in a body, and the BEAM's badargs.
-module(trace_pattern_send_receive).
-export([main/0]).

main() ->
    Self = self(),
    P = spawn(fun() -> worker(Self) end),
    Names = #{P => p, Self => main},
    1 = erlang:trace(P, true, [send, 'receive']),
    show(erlang:trace_info(send, match_spec)),
    show(erlang:trace_info('receive', match_spec)),
    %% Sends to main of {pong, N} with N > 1 only.
    SendMs = [{[Self, {pong, '$1'}], [{'>', '$1', 1}], []}],
    1 = erlang:trace_pattern(send, SendMs, []),
    %% Receives of {ping, _} from any process on this node.
    1 = erlang:trace_pattern('receive', [{[node(), '_', {ping, '_'}], [], []}], []),
    show(erlang:trace_info(send, match_spec) =:= {match_spec, SendMs}),
    show(erlang:trace_info('receive', match_spec)),
    [ping(P, N) || N <- [1, 2, 3]],
    P ! {other, 4},
    sync(P),
    io:format("-- patterns~n"),
    trace_names:print(Names),
    %% The sender as the receive pattern sees it.
    1 = erlang:trace_pattern('receive', [{['_', Self, '_'], [], []}], []),
    Q = spawn(fun() -> P ! {ping, 9}, receive after infinity -> ok end end),
    receive {pong, 9} -> ok end,
    ping(P, 10),
    sync(P),
    io:format("-- from main only~n"),
    trace_names:print(Names#{Q => q}),
    exit(Q, kill),
    %% false: no events at all; true: all again.
    1 = erlang:trace_pattern(send, false, []),
    1 = erlang:trace_pattern('receive', false, []),
    show(erlang:trace_info(send, match_spec)),
    ping(P, 5),
    sync(P),
    io:format("-- off~n"),
    trace_names:print(Names),
    1 = erlang:trace_pattern(send, true, []),
    1 = erlang:trace_pattern('receive', [{'_', [], [{message, false}]}], []),
    ping(P, 6),
    sync(P),
    io:format("-- send on, receive message(false)~n"),
    trace_names:print(Names),
    1 = erlang:trace_pattern('receive', true, []),
    show(erlang:trace_info('receive', match_spec)),
    show(catch erlang:trace_pattern(send, true, [local])),
    show(catch erlang:trace_pattern(send, pause, [])),
    show(catch erlang:trace_pattern('receive', [{bad}], [])),
    show(catch erlang:trace_info(send, flags)),
    P ! stop.

ping(P, N) ->
    P ! {ping, N},
    receive {pong, N} -> ok end.

sync(P) ->
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end.

show({'EXIT', {Reason, _}}) -> io:format("~p~n", [Reason]);
show(T) -> io:format("~p~n", [T]).

worker(Parent) ->
    receive
        {ping, N} -> Parent ! {pong, N}, worker(Parent);
        {other, _} -> worker(Parent);
        stop -> ok
    end.
