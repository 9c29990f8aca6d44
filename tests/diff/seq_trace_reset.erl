%% seq_trace:reset_trace/0: every process's token and counters emptied,
%% and the tokens of messages still waiting in mailboxes.
-module(seq_trace_reset).
-export([main/0]).

main() ->
    Me = self(),
    Holder = spawn(fun() -> holder() end),
    seq_trace:set_token(label, 1),
    seq_trace:set_token(serial, {30, 40}),
    %% The holder takes this one now (its token is set from it) ...
    Holder ! {take, Me},
    receive {taken, Before} -> ok end,
    %% ... and leaves this one waiting, with a token.
    Holder ! waiting,
    Mine = seq_trace:get_token(),
    true = seq_trace:reset_trace(),
    AfterMine = seq_trace:get_token(),
    Holder ! {report, Me},
    receive {report, Reported} -> ok end,
    seq_trace:set_token(label, 2),
    Fresh = seq_trace:get_token(),
    seq_trace:set_token([]),
    Reset = erlang:system_flag(reset_seq_trace, anything),
    io:format("~p~n", [trace_names:name([Before, Mine, AfterMine, Reported, Fresh, Reset],
                                        #{Me => me, Holder => holder})]).

holder() ->
    receive {take, From} -> From ! {taken, seq_trace:get_token()} end,
    receive {report, To} ->
            T0 = seq_trace:get_token(),
            %% Its counters were reset: a fresh token starts from 0.
            seq_trace:set_token(label, 3),
            Serial = seq_trace:get_token(serial),
            %% The waiting message's token was emptied too.
            receive waiting -> ok end,
            To ! {report, {T0, Serial, seq_trace:get_token()}}
    end.
