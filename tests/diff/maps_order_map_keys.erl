-module(maps_order_map_keys).
-export([main/0]).

%% Map order with maps as keys (small and large maps, and the empty map,
%% inside large maps) and with atoms the program creates among them only
%% as a mix with other keys in a large map (hash order). OTP 25 and OTP
%% 26+ hash differently; each release prints its own order.
main() ->
    Big = maps:from_list([{list_to_atom("mo_big_" ++ integer_to_list(I)), I} || I <- lists:seq(1, 40)]),
    io:format("~w~n", [lists:sort(maps:values(Big)) =:= lists:seq(1, 40)]),
    Small = #{1 => 10, 2 => <<"twenty">>, 3 => 3.0},
    Large = maps:from_list([{I, I} || I <- lists:seq(1, 40)]),
    Full = maps:from_list([{I * 1000, I} || I <- lists:seq(1, 300)]),
    Keys = maps:from_list([{Small, small}, {Large, large}, {Full, full}, {#{}, empty}]
                          ++ [{#{I => I}, I} || I <- lists:seq(1, 40)]),
    io:format("~w~n", [maps:values(Keys)]),
    io:format("~w~n", [[maps:get(K, Keys) || K <- [Small, Large, Full, #{}]]]),
    io:format("~p~n", [erlang:md5(term_to_binary(maps:values(Keys)))]),
    Nested = maps:from_list([{{I, #{I => [I]}}, I} || I <- lists:seq(1, 50)]),
    io:format("~w~n", [maps:values(Nested)]),
    ok.
