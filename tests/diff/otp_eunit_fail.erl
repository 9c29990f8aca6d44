%% eunit with failing tests: the summary counts must match (eunit:test/2
%% returns error). Failure details go through the verbose-free output.
-module(otp_eunit_fail).
-include_lib("eunit/include/eunit.hrl").
-export([main/0]).

main() ->
    R = eunit:test([?_assertEqual(1, 1),
                    ?_assertEqual(3, 1 + 1),
                    ?_assert(false),
                    ?_test(ok)], []),
    io:format("result: ~p~n", [R]).
