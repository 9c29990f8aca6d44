%% diff-requires-otp: 27
%% What ends a trace session besides trace:session_destroy/1: the end of
%% the processes holding its handle. The creator's end, when nothing else
%% holds it; a process the handle was passed to, which uses it, keeps it
%% past the creator until it ends too. A dead tracer process does not end
%% its session. Destroying: true once, then false for the handle; a weak
%% handle of an ended session names nothing (badarg).
-module(trace_sessions_lifetime).
-export([main/0]).

main() ->
    Self = self(),
    T = spawn(fun() -> receive stop -> ok end end),
    P = spawn(fun() -> receive stop -> ok end end),
    %% A dead tracer: its session stays.
    Dies = trace:session_create(dies, T, []),
    show(trace:process(Dies, P, true, [send])),
    stop(T),
    show(names(trace:session_info(all))),
    %% The creator ends and nothing else holds the handle.
    in_process(fun() ->
        S = trace:session_create(alone, self(), []),
        Self ! {weak, element(2, S)}
    end),
    Weak = receive {weak, W} -> W end,
    wait_gone(alone, 100),
    show(names(trace:session_info(all))),
    show(catch trace:session_destroy(Weak)),
    %% Passed on to a process that uses it: it outlives its creator.
    User = spawn(fun() -> user() end),
    in_process(fun() ->
        S = trace:session_create(passed, self(), []),
        User ! {session, S, self()},
        receive used -> ok end
    end),
    show(names(trace:session_info(all))),
    stop(User),
    wait_gone(passed, 100),
    show(names(trace:session_info(all))),
    show([trace:session_destroy(Dies), trace:session_destroy(Dies)]),
    show(names(trace:session_info(all))),
    stop(P).

%% Runs F in a process of its own, until that process ends.
in_process(F) ->
    {Pid, Ref} = spawn_monitor(F),
    receive {'DOWN', Ref, process, Pid, _} -> ok end.

%% Uses the session it is given, then holds it until told to stop.
user() ->
    receive {session, S, From} -> ok end,
    {flags, []} = trace:info(S, self(), flags),
    From ! used,
    receive stop -> {ok, S} end.

stop(Pid) ->
    Ref = monitor(process, Pid),
    Pid ! stop,
    receive {'DOWN', Ref, process, Pid, _} -> ok end.

%% Waits (up to N times 10 ms) until no session is named Name.
wait_gone(Name, 0) -> io:format("~p still alive~n", [Name]);
wait_gone(Name, N) ->
    case lists:member(Name, names(trace:session_info(all))) of
        true -> timer:sleep(10), wait_gone(Name, N - 1);
        false -> ok
    end.

names(L) when is_list(L) -> lists:sort([Name || {Name, _} <- L]);
names(X) -> X.

show({'EXIT', {Reason, [{M, F, Args, Location} | _]}}) ->
    Info = proplists:get_value(error_info, Location, #{}),
    io:format("~p~n", [{Reason, {M, F, Args}, maps:get(cause, Info, none)}]);
show(T) -> io:format("~p~n", [T]).
