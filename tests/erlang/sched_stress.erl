-module(sched_stress).
%% Stress for the scheduler's state protocol: many senders blast many
%% receivers on several schedulers; every message must arrive exactly once,
%% no wake-up may be lost (the run finishes), and each receiver's count of
%% messages it saw while its own dictionary said it was running once.
-export([main/0]).

-define(RECEIVERS, 50).
-define(SENDERS, 50).
-define(MESSAGES, 400).

main() ->
    Self = self(),
    Receivers = [spawn(fun() -> receiver(Self, 0, 0) end) || _ <- lists:seq(1, ?RECEIVERS)],
    Senders = [spawn(fun() -> sender(Receivers, ?MESSAGES), Self ! sent end) || _ <- lists:seq(1, ?SENDERS)],
    [receive sent -> ok end || _ <- Senders],
    [R ! {done, Self} || R <- Receivers],
    Totals = [receive {total, R, N, Sum} -> {N, Sum} end || R <- Receivers],
    Count = lists:sum([N || {N, _} <- Totals]),
    Sum = lists:sum([S || {_, S} <- Totals]),
    Expected = ?SENDERS * ?MESSAGES,
    ExpectedSum = ?SENDERS * lists:sum(lists:seq(1, ?MESSAGES)),
    exit({stress, Count =:= Expected, Sum =:= ExpectedSum}).

sender(Receivers, N) ->
    sender(Receivers, Receivers, 1, N).

sender(_, _, I, N) when I > N -> ok;
sender(All, [], I, N) -> sender(All, All, I, N);
sender(All, [R | Rs], I, N) ->
    R ! {msg, I},
    sender(All, Rs, I + 1, N).

receiver(Parent, N, Sum) ->
    receive
        {msg, I} -> receiver(Parent, N + 1, Sum + I);
        {done, Parent} -> drain(Parent, N, Sum)
    end.

drain(Parent, N, Sum) ->
    receive
        {msg, I} -> drain(Parent, N + 1, Sum + I)
    after 0 ->
        Parent ! {total, self(), N, Sum}
    end.
