-module(fmt_numbers).
-export([main/0]).

%% Integer directives: ~b ~B ~x ~X ~# ~+ ~i with bases, widths and padding.
main() ->
    Ns = [0, 7, -7, 255, 65535, -48879, 1 bsl 70],
    [io:format("[~b] [~.2b] [~.16b] [~.16B] [~.36B]~n", [N, N, N, N, N]) || N <- Ns],
    [io:format("[~.16x] [~.16X] [~.2#] [~.16+]~n", [N, "0x", N, "0x", N, N]) || N <- Ns],
    io:format("[~8b] [~-8b|] [~8.16b] [~08b] [~8.2.0b]~n", [42, 42, 255, 42, 5]),
    io:format("[~.8.0B] [~*b]~n", [9, 6, 3]),
    io:format("[~i] [~w]~n", [ignored, shown]),
    io:format("[~p] [~w] [~10w] [~-10w|]~n", [12345678901234567890, -1, 42, 42]),
    io:format("~s~n", [integer_to_list(255, 16)]),
    ok.
