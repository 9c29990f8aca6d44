-module(maps_binary_keys).
-export([main/0]).

%% Large maps keyed by binaries, strings and floats: OTP's hash order.
main() ->
    B = maps:from_list([{integer_to_binary(I), I} || I <- lists:seq(1, 50)]),
    io:format("~w~n", [maps:keys(B)]),
    S = maps:from_list([{integer_to_list(I * 7), I} || I <- lists:seq(1, 40)]),
    io:format("~p~n", [S]),
    F = maps:from_list([{I / 4, I} || I <- lists:seq(1, 36)]),
    io:format("~w~n", [maps:to_list(F)]),
    Mixed = maps:merge(B, #{1 => one, 1.0 => float_one, <<>> => empty, [] => nil}),
    io:format("~w~n", [[maps:get(1, Mixed), maps:get(1.0, Mixed), maps:get(<<>>, Mixed), map_size(Mixed)]]),
    io:format("~w~n", [maps:fold(fun(K, V, Acc) when is_binary(K), is_integer(V) -> Acc + V; (_, _, Acc) -> Acc end, 0, Mixed)]),
    ok.
