-module(float_print_shortest).
-export([main/0]).

%% Shortest round-trip float printing (~w, ~p, float_to_list/1 is not it).
main() ->
    Fs = [0.0, -0.0, 1.0, -1.0, 0.1, 0.2, 0.30000000000000004, 1/3, 2/3, 100.0,
          1.0e15, 1.0e16, 1.0e17, 123456789.125, 1.0e-5, 1.0e-4, 0.001, 5.0e-324,
          2.2250738585072014e-308, 1.7976931348623157e308, 9007199254740993.0,
          3.141592653589793, 2.718281828459045, 6.02214076e23, -1.5e-7, 1.0e21,
          1.0e22, 1.0e23, 123.456, 0.5, 1024.0, 65536.0e3],
    [io:format("~w ~p~n", [F, F]) || F <- Fs],
    io:format("~w~n", [Fs]),
    io:format("~p~n", [[{F, -F} || F <- lists:sublist(Fs, 8)]]),
    io:format("~s~n", [io_lib:format("~w", [1.0e-10])]),
    io:format("~p~n", [[float_to_list(F, [short]) || F <- [0.1, 1.0e20, 1.5e-9, -3.0]]]),
    io:format("~p~n", [[list_to_float(lists:flatten(io_lib:format("~w", [F]))) == F || F <- Fs]]),
    ok.
