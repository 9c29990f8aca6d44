%% eunit running a module's own *_test and *_test_ functions.
-module(otp_eunit_module).
-include_lib("eunit/include/eunit.hrl").
-export([main/0]).

main() ->
    R = eunit:test(?MODULE, []),
    io:format("result: ~p~n", [R]).

add_test() -> ?assertEqual(3, 1 + 2).
reverse_test() -> ?assertEqual([3, 2, 1], lists:reverse([1, 2, 3])).
sort_test_() -> [?_assertEqual(lists:seq(1, 5), lists:sort([3, 1, 5, 2, 4]))].
error_test() -> ?assertError(badarg, list_to_atom(42)).
map_test_() -> {"maps", [?_assertEqual(#{a => 1}, maps:from_list([{a, 1}]))]}.
