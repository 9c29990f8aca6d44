%% Version 1 of a server whose slow function has a bug (it answers
%% X * X + 1). beamr-sched/tests/code_live_fix.rs loads a corrected
%% version 2 through the Rust API while main/0's client keeps sending
%% requests; the server recurs through ?MODULE:loop/1, so its answers
%% switch to version 2 without a restart. main/0 exits with
%% {results, Answers, SamePid, Served}: the runs of {Version, Correct}
%% answers in order, whether one server answered all, and how many
%% requests it served. The client registers as code_hotswap_client once
%% the first answer came.
-module(code_hotswap).
-export([main/0, loop/1, version/0]).

version() -> 1.

main() ->
    P = spawn(?MODULE, loop, [0]),
    %% The client asks until version 2 has answered, for at most a minute
    %% (the fix comes some 100 ms after the first answer; the limit only
    %% ends a run whose fix never took).
    Deadline = erlang:monotonic_time(millisecond) + 60000,
    {Runs, Pids} = client(P, 1, 0, [], [], Deadline),
    P ! {count, self()},
    Served = receive {count, N} -> N end,
    exit({results, lists:reverse(Runs), lists:usort(Pids) =:= [P], Served}).

%% Asks until 20 answers came from version 2 (or Deadline passed).
client(_, _, 20, Runs, Pids, _) -> {Runs, Pids};
client(P, I, V2s, Runs, Pids, Deadline) ->
    case erlang:monotonic_time(millisecond) > Deadline of
        true -> {Runs, Pids};
        false -> ask(P, I, V2s, Runs, Pids, Deadline)
    end.

ask(P, I, V2s, Runs, Pids, Deadline) ->
    P ! {req, self(), I},
    receive
        {reply, From, Vsn, Answer} ->
            %% Tells the Rust test that version 1 has answered.
            [register(code_hotswap_client, self()) || I =:= 1],
            Item = {Vsn, Answer =:= I * I},
            Runs1 = case Runs of [Item | _] -> Runs; _ -> [Item | Runs] end,
            client(P, I + 1, V2s + if Vsn =:= 2 -> 1; true -> 0 end, Runs1, [From | Pids], Deadline)
    end.

loop(N) ->
    receive
        {req, From, X} ->
            From ! {reply, self(), version(), handle(X)},
            ?MODULE:loop(N + 1);
        {count, From} ->
            From ! {count, N},
            ?MODULE:loop(N)
    end.

handle(X) -> slow(X, 3000) + 1.

slow(X, 0) -> X * X;
slow(X, K) -> slow(X, K - 1).
