%% diff-requires-otp: 27
%% Two trace sessions (trace:session_create/3) tracing one process with
%% different flags and patterns, each tracer getting only its own events;
%% trace:info/3 and trace:session_info/1 per session; the legacy session
%% (erlang:trace/3) untouched; destroying one session leaves the other.
-module(trace_sessions_two).
-export([main/0, work/1]).

work(N) -> N * 2.

main() ->
    Self = self(),
    T1 = trace_worker:collector(),
    T2 = trace_worker:collector(),
    S1 = trace:session_create(one, T1, []),
    S2 = trace:session_create(two, T2, []),
    P = trace_worker:worker(Self, fun(N) -> ?MODULE:work(N) end),
    Names = #{P => p, Self => main, T1 => t1, T2 => t2},
    show(Names, trace:process(S1, P, true, [send])),
    show(Names, trace:process(S2, P, true, ['receive', call])),
    show(Names, trace:function(S2, {?MODULE, work, 1}, [{'_', [], [{return_trace}]}], [local])),
    show(Names, trace:recv(S1, false, [])),
    show(Names, trace:info(S1, P, flags)),
    show(Names, trace:info(S2, P, flags)),
    show(Names, trace:info(S1, P, tracer)),
    show(Names, trace:info(S2, P, tracer)),
    show(Names, trace:info(S1, {?MODULE, work, 1}, traced)),
    show(Names, trace:info(S2, {?MODULE, work, 1}, all)),
    show(Names, trace:info(S1, 'receive', match_spec)),
    show(Names, trace:info(S2, 'receive', match_spec)),
    show(Names, names(trace:session_info(P))),
    show(Names, names(trace:session_info({?MODULE, work, 1}))),
    show(Names, names(trace:session_info(all))),
    show(Names, erlang:trace_info(P, flags)),
    trace_worker:ask(P, 1),
    io:format("-- t1~n"),
    [show(Names, T) || T <- trace_worker:events(T1)],
    io:format("-- t2~n"),
    [show(Names, T) || T <- trace_worker:events(T2)],
    %% Destroying one leaves the other.
    show(Names, trace:session_destroy(S1)),
    show(Names, trace:session_destroy(S1)),
    show(Names, names(trace:session_info(P))),
    show(Names, catch trace:info(S1, P, flags)),
    trace_worker:ask(P, 2),
    io:format("-- t1 after destroy~n"),
    [show(Names, T) || T <- trace_worker:events(T1)],
    io:format("-- t2 after destroy~n"),
    [show(Names, T) || T <- trace_worker:events(T2)],
    show(Names, trace:session_destroy(S2)),
    show(Names, names(trace:session_info(all))),
    show(Names, catch trace:session_create("one", T1, [])),
    show(Names, catch trace:session_create(one, T1, [bad])),
    show(Names, catch trace:process(S2, P, true, [send])),
    P ! stop.

names(L) when is_list(L) -> lists:sort([Name || {Name, _} <- L]);
names(X) -> X.

show(Names, {'EXIT', {Reason, _}}) -> io:format("~p~n", [trace_names:name(Reason, Names)]);
show(Names, T) -> io:format("~p~n", [trace_names:name(T, Names)]).
