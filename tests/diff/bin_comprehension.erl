-module(bin_comprehension).
-export([main/0]).

%% Binary comprehensions and bit-level generators.
main() ->
    B = <<"Hello, World">>,
    p(<< <<(C bxor 32)>> || <<C>> <= B, C >= $a >>),
    p([X || <<X:3>> <= <<2#101110001:9>>]),
    p(<< <<X:4>> || X <- [1, 2, 3, 15] >>),
    p(<< <<X:16/little>> || X <- lists:seq(1, 5) >>),
    p([{A, B2} || <<A:4, B2:4>> <= <<16#12, 16#34, 16#56>>]),
    p(<< <<Bin/binary, ",">> || Bin <- [<<"a">>, <<"bb">>, <<>>] >>),
    p(<< <<B3:1>> || B3 <- [1, 0, 1, 1, 0, 0, 0, 1, 1] >>),
    p([X || <<X:8>> <= <<1, 2, 3, 4:4>>]),
    p(hex(<<222, 173, 190, 239>>)),
    ok.

hex(Bin) -> << <<(hexdigit(N))>> || <<N:4>> <= Bin >>.
hexdigit(N) when N < 10 -> $0 + N;
hexdigit(N) -> $a + N - 10.

p(X) -> io:format("~p~n", [X]).
