%% OTP's eunit running a test module with passing and failing tests: the
%% summary lines must match.
-module(otp_eunit_sample).
-include_lib("eunit/include/eunit.hrl").
-export([main/0]).

main() ->
    %% Only the summary: failures print stack traces with line numbers of
    %% eunit's own code, which we keep out of the comparison.
    R = eunit:test([{generator, fun passing/0}], []),
    io:format("result: ~p~n", [R]).

passing() ->
    [?_assertEqual(4, 2 + 2),
     ?_assert(lists:member(b, [a, b, c])),
     ?_assertMatch({ok, _}, {ok, 1}),
     ?_assertError(badarith, 1 / zero()),
     ?_assertExit(bye, exit(bye)),
     ?_assertThrow(ball, throw(ball)),
     ?_assertNotEqual(1, 2),
     {"named test", ?_assertEqual("ab", "a" ++ "b")},
     {setup, fun() -> 41 end, fun(_) -> ok end,
      fun(X) -> [?_assertEqual(42, X + 1)] end},
     {inparallel, [?_assertEqual(N * 2, N + N) || N <- lists:seq(1, 5)]},
     {spawn, ?_assertEqual(true, is_pid(self()))},
     {timeout, 5, ?_assertEqual(ok, ok)}].

zero() -> 0.
