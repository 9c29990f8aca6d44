%% caller_line/0 and current_stacktrace/0,1 (OTP 26+) in a
%% tracing match specification's body; on older releases the BEAM
%% refuses the specification with badarg.
-module(trace_ms_stacktrace).
-export([main/0, f/1]).

f(X) -> X.

main() ->
    Release = list_to_integer(erlang:system_info(otp_release)),
    Specs = [{caller_line, [{'_', [], [{message, {caller_line}}]}]},
             {current_stacktrace, [{'_', [], [{message, {current_stacktrace}}]}]},
             {current_stacktrace_1, [{'_', [], [{message, {current_stacktrace, 1}}]}]}],
    [run(Name, Spec, Release) || {Name, Spec} <- Specs],
    ok.

run(Name, Spec, Release) ->
    Self = self(),
    R = try erlang:trace_pattern({?MODULE, f, 1}, Spec, []) catch C:E -> {C, E} end,
    io:format("~p on ~s: ~p~n", [Name, if Release >= 27 -> "27+"; true -> "older" end,
                                    case Release of 26 -> skip; _ -> R end]),
    W = spawn(fun() -> receive go -> ok end, ?MODULE:f(1), ?MODULE:f(2), Self ! done end),
    1 = erlang:trace(W, true, [call]),
    W ! go,
    receive done -> ok end,
    trace_names:print(#{W => w, Self => main}),
    erlang:trace_pattern({?MODULE, f, 1}, false, []).
