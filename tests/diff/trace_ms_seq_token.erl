-module(trace_ms_seq_token).
-export([main/0, traced/1]).

%% seq_trace from a trace match specification: is_seq_trace/0 in a guard,
%% get_seq_token/0 and set_seq_token/2 in a body.
main() ->
    Self = self(),
    Tracer = spawn(fun() -> collect(Self, []) end),
    erlang:trace(self(), true, [call, {tracer, Tracer}]),
    Seen = erlang:trace_pattern({?MODULE, traced, 1},
                                [{'_', [{is_seq_trace}], [{message, {get_seq_token}}]},
                                 {'_', [], [{set_seq_token, label, 17}, {message, nolabel}]}],
                                [global]),
    io:format("matched ~p~n", [Seen]),
    ?MODULE:traced(1),
    io:format("label after first call ~p~n", [seq_trace:get_token(label)]),
    ?MODULE:traced(2),
    Bad = erlang:trace_pattern({?MODULE, traced, 1},
                               [{'_', [], [{set_seq_token, nonsense, 1}]}], [global]),
    io:format("bad component accepted when set: ~p~n", [Bad]),
    ?MODULE:traced(3),
    io:format("label still ~p~n", [seq_trace:get_token(label)]),
    erlang:trace(self(), false, [call]),
    seq_trace:reset_trace(),
    Tracer ! {done, Self},
    receive {msgs, Msgs} -> [io:format("~p~n", [describe(M)]) || M <- Msgs] end,
    ok.

traced(N) -> N.

describe({trace, _, call, {M, F, A}, nolabel}) -> {call, M, F, A, nolabel};
describe({trace, _, call, {M, F, A}, Token}) when is_tuple(Token) ->
    {call, M, F, A, {label, element(2, Token)}, {serial_is_tuple, is_tuple(element(3, Token))}};
describe({trace, _, call, {M, F, A}}) -> {call, M, F, A};
describe(Other) -> {other, Other}.

collect(Main, Acc) ->
    receive
        {done, Main} -> Main ! {msgs, lists:reverse(Acc)};
        M -> collect(Main, [M | Acc])
    end.
