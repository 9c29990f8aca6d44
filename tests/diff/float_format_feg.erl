-module(float_format_feg).
-export([main/0]).

%% io:format's ~f, ~e and ~g with precisions, widths and padding.
main() ->
    Fs = [0.0, 1.0, -1.0, 3.14159, 0.000123, 123456.789, 1.0e10, -2.5e-5, 0.5, 99.995],
    [io:format("[~f] [~e] [~g]~n", [F, F, F]) || F <- Fs],
    [io:format("[~.2f] [~.3e] [~.3g]~n", [F, F, F]) || F <- Fs],
    [io:format("[~12.3f] [~-12.3f] [~12.2e] [~*.*f]~n", [F, F, F, 10, 1, F]) || F <- Fs],
    io:format("[~10.3.0f] [~10.2._f] [~.1f]~n", [2.5, 2.5, 0.05]),
    io:format("~p~n", [catch io:format("[~f] [~e]~n", [1, 2])]),
    io:format("[~.10f] [~.15e]~n", [1/3, 1/3]),
    io:format("[~3f]~n", [123.456]),
    ok.
