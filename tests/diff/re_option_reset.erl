%% PCRE2's option reset (?^): OTP 25 and 27 (PCRE 8) refuse it where it
%% stands, OTP 29 (PCRE2) takes it; each release's erl gives its answer.
-module(re_option_reset).
-export([main/0]).

main() ->
    [io:format("~s: ~p~n", [P, compiled(re:compile(P))])
     || P <- ["a(?^)", "(?^i:x)", "(?^)", "x(?i)(?^)y", "(?i)a(?^:b)"]],
    [io:format("~s run: ~p~n", [P, catch re:run(S, P)])
     || {P, S} <- [{"a(?^)", "aX"}, {"(?i)a(?^:b)", "Ab"}, {"(?i)a(?^:b)", "AB"}]],
    ok.

compiled({ok, _}) -> ok;
compiled(Error) -> Error.
