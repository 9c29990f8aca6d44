-module(sched_stress).
%% Stress for the scheduler's state protocol: many senders blast many
%% receivers on several schedulers; every message must arrive exactly once
%% and no wake-up may be lost (the run finishes).
%%
%% main/0 exits with {stress, true, true} when every receiver got exactly
%% its messages. Every wait has a deadline (DeadlineMs per phase: 60 s for
%% main/0), so a lost message or wake-up ends the run with a reason saying
%% what is missing instead of hanging: {stress, senders_unfinished, Ks,
%% within_ms, DeadlineMs} (senders Ks never said they were done) or
%% {stress, receivers_wrong, Problems}, where a problem is {receiver, K, got,
%% N, expected, WantN, sum, Sum, expected_sum, WantSum} or {receiver, K,
%% no_total_within_ms, DeadlineMs}.
%%
%% main/2 injects a fault, so that the tests can check those reports:
%% none; drop_two (receiver 1 discards two messages); silent (receiver 1
%% never reports its total); hang (main itself waits forever). A short
%% DeadlineMs is for the silent receiver only: the senders and every other
%% receiver get at least ?GUARD_MS, so that a loaded machine, not a fault,
%% cannot make one of them miss a short deadline.
-export([main/0, main/2]).

-define(RECEIVERS, 50).
-define(SENDERS, 50).
-define(MESSAGES, 400).
%% A round takes well under a second on an idle machine.
-define(GUARD_MS, 60000).

main() ->
    main(none, 60000).

main(hang, _) ->
    receive never -> ok end;
main(Fault, DeadlineMs) ->
    Self = self(),
    Faults = [Fault | lists:duplicate(?RECEIVERS - 1, none)],
    Receivers = [spawn(fun() -> receiver(Self, 0, 0, F) end) || F <- Faults],
    Senders = [spawn(fun() -> sender(Receivers, ?MESSAGES), Self ! {sent, self()} end)
               || _ <- lists:seq(1, ?SENDERS)],
    Numbered = fun(Pids) -> lists:zip(lists:seq(1, length(Pids)), Pids) end,
    Guarded = max(DeadlineMs, ?GUARD_MS),
    SentBy = deadline(Guarded),
    case [K || {K, S} <- Numbered(Senders), not sent(S, SentBy)] of
        [] -> ok;
        Unfinished -> exit({stress, senders_unfinished, Unfinished, within_ms, Guarded})
    end,
    [R ! {done, Self} || R <- Receivers],
    Waits = [case F of silent -> DeadlineMs; _ -> Guarded end || F <- Faults],
    Bys = [{deadline(Ms), Ms} || Ms <- Waits],
    Problems = [P || {{K, R}, {By, Ms}} <- lists:zip(Numbered(Receivers), Bys),
                     P <- total(K, R, By, Ms)],
    case Problems of
        [] -> exit({stress, true, true});
        _ -> exit({stress, receivers_wrong, Problems})
    end.

%% The monotonic time (ms) Ms from now.
deadline(Ms) ->
    erlang:monotonic_time(millisecond) + Ms.

%% Milliseconds left until Deadline.
remaining(Deadline) ->
    max(0, Deadline - erlang:monotonic_time(millisecond)).

%% Whether sender S said it was done before Deadline.
sent(S, Deadline) ->
    receive
        {sent, S} -> true
    after remaining(Deadline) -> false
    end.

%% [] when receiver K (pid R) reports exactly its messages before Deadline,
%% else [Problem]. Sender messages I = 1..?MESSAGES go round the receivers,
%% so receiver K gets each I with (I - 1) rem ?RECEIVERS =:= K - 1, once per
%% sender.
total(K, R, Deadline, DeadlineMs) ->
    Mine = [I || I <- lists:seq(1, ?MESSAGES), (I - 1) rem ?RECEIVERS =:= K - 1],
    {WantN, WantSum} = {?SENDERS * length(Mine), ?SENDERS * lists:sum(Mine)},
    receive
        {total, R, WantN, WantSum} -> [];
        {total, R, N, Sum} -> [{receiver, K, got, N, expected, WantN, sum, Sum, expected_sum, WantSum}]
    after remaining(Deadline) ->
        [{receiver, K, no_total_within_ms, DeadlineMs}]
    end.

sender(Receivers, N) ->
    sender(Receivers, Receivers, 1, N).

sender(_, _, I, N) when I > N -> ok;
sender(All, [], I, N) -> sender(All, All, I, N);
sender(All, [R | Rs], I, N) ->
    R ! {msg, I},
    sender(All, Rs, I + 1, N).

receiver(Parent, N, Sum, drop_two) ->
    receive {msg, _} -> ok end,
    receive {msg, _} -> ok end,
    receiver(Parent, N, Sum, none);
receiver(Parent, N, Sum, Fault) ->
    receive
        {msg, I} -> receiver(Parent, N + 1, Sum + I, Fault);
        {done, Parent} when Fault =:= silent -> receive never -> ok end;
        {done, Parent} -> drain(Parent, N, Sum)
    end.

drain(Parent, N, Sum) ->
    receive
        {msg, I} -> drain(Parent, N + 1, Sum + I)
    after 0 ->
        Parent ! {total, self(), N, Sum}
    end.
