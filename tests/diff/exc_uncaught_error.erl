-module(exc_uncaught_error).
-export([main/0]).

%% An error escaping main: erl prints the reason and stack and exits 1.
main() ->
    step(3).

step(0) -> error({bad, "thing", 42});
step(N) -> [step(N - 1)].
