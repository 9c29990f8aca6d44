%% diff-requires-otp: 27
%% Trace sessions with a tracer module (trace:session_create(Name,
%% {Module, State}, [])): erl_tracer's state is the tracer process, named
%% by trace:info; a module that is no tracer module is a bad argument.
-module(trace_sessions_tracer_module).
-export([main/0]).

main() ->
    Self = self(),
    T = trace_worker:collector(),
    P = trace_worker:worker(Self),
    Names = #{P => p, Self => main, T => t},
    S = trace:session_create(mod, {erl_tracer, T}, []),
    show(Names, trace:process(S, P, true, [send, 'receive'])),
    show(Names, trace:info(S, P, tracer)),
    show(Names, trace:info(S, P, flags)),
    trace_worker:ask(P, 1),
    io:format("-- to t~n"),
    [show(Names, E) || E <- trace_worker:events(T)],
    %% A state that is no process: a session whose tracer takes nothing.
    None = trace:session_create(none, {erl_tracer, nobody}, []),
    show(Names, trace:process(None, P, true, [send])),
    show(Names, trace:info(None, P, flags)),
    show(Names, catch trace:session_create(bad, {lists, []}, [])),
    show(Names, catch trace:session_create(bad, {no_such_tracer_module, []}, [])),
    show(Names, catch trace:session_create(bad, {erl_tracer, T, x}, [])),
    show(Names, catch trace:process(S, P, true, [send, {tracer, erl_tracer, T}])),
    show(Names, catch trace:function(S, {lists, seq, 2}, true, [{meta, erl_tracer, T}])),
    show(Names, [trace:session_destroy(X) || X <- [S, None]]),
    show(Names, names(trace:session_info(all))),
    P ! stop.

names(L) when is_list(L) -> lists:sort([Name || {Name, _} <- L]);
names(X) -> X.

%% An exception: its reason, and the function, arguments and cause of its
%% first frame (whose line differs between releases).
show(Names, {'EXIT', {Reason, [{M, F, Args, Location} | _]}}) ->
    Info = proplists:get_value(error_info, Location, #{}),
    Cause = maps:get(cause, Info, none),
    io:format("~p~n", [trace_names:name({Reason, {M, F, Args}, Cause}, Names)]);
show(Names, T) -> io:format("~p~n", [trace_names:name(T, Names)]).
