-module(float_to_text).
-export([main/0]).

%% float_to_list/float_to_binary with and without options.
main() ->
    Fs = [0.0, 1.0, -1.5, 0.1, 123.456, 1.0e20, 1.0e-20, 2.5, 0.125, 1/3],
    [io:format("~s~n", [float_to_list(F)]) || F <- Fs],
    Opts = [[{decimals, 0}], [{decimals, 2}], [{decimals, 4}, compact],
            [{scientific, 3}], [{scientific, 0}], [compact, {decimals, 10}], [short]],
    [io:format("~w ~w: ~s~n", [F, O, float_to_list(F, O)]) || F <- Fs, O <- Opts],
    io:format("~p~n", [[float_to_binary(F, [{decimals, 3}]) || F <- [2.0005, 2.0015, -0.0005]]]),
    io:format("~p~n", [float_to_binary(1.5)]),
    io:format("~p~n", [try float_to_list(1) catch C:R -> {C, R} end]),
    io:format("~p~n", [try float_to_list(1.0, [{decimals, 300}]) catch C2:R2 -> {C2, R2} end]),
    ok.
