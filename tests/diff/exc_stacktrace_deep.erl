-module(exc_stacktrace_deep).
-export([main/0]).

%% Deep recursion: the trace is cut to 8 frames; catch's EXIT tuple;
%% erlang:get_stacktrace-free rethrow keeps the original trace.
main() ->
    io:format("~p~n", [catch deep(20)]),
    try deep(3) catch error:R:S -> io:format("~p~n~p~n", [R, S]) end,
    try rethrow() catch C:R2:S2 -> io:format("~p~n", [{C, R2, S2}]) end,
    try mutual(5) catch C3:R3:S3 -> io:format("~p~n", [{C3, R3, length(S3), S3}]) end,
    ok.

deep(0) -> erlang:error(bottom);
deep(N) -> [deep(N - 1)].

rethrow() ->
    try deep(1) catch C:R:S -> erlang:raise(C, {wrapped, R}, S) end.

mutual(0) -> throw(done);
mutual(N) when N rem 2 == 0 -> {even(N - 1)};
mutual(N) -> [even(N - 1)].

even(N) -> [mutual(N)].
