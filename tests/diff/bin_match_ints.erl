-module(bin_match_ints).
-export([main/0]).

%% Matching integer segments of constant sizes up to 64 bits: every byte
%% order and signedness, at byte and bit positions, near the end of the
%% binary, values past the small-integer range, and matches that fail.
main() ->
    Bytes = list_to_binary([(I * 37 + 11) rem 256 || I <- lists:seq(1, 100)]),
    Small = binary:part(Bytes, 0, 20),
    Sub = binary:part(Bytes, 3, 90),
    [io:format("~p~n", [all(B)]) || B <- [Bytes, Small, Sub, <<255, 255, 255, 255, 255, 255, 255, 255, 255>>,
                                           <<128, 0, 0, 0, 0, 0, 0, 0, 1>>]],
    %% Unaligned: after a 3-bit field.
    <<_:3, Rest/bitstring>> = Bytes,
    io:format("~p~n", [all(Rest)]),
    io:format("~p~n", [sum(Bytes, 0)]),
    io:format("~p~n", [sum(Sub, 0)]),
    io:format("~p~n", [sum(<<Sub/binary, 1>>, 0)]),
    io:format("~p~n", [pairs(Bytes, [])]),
    io:format("~p~n", [[first64(B) || B <- [<<1,2,3,4,5,6,7>>, <<1,2,3,4,5,6,7,8>>, <<255:64>>, <<-1:64>>]]]),
    io:format("~p~n", [[le(B) || B <- [<<1,2,3>>, <<1,2,3,4>>, <<0,0,0,128>>, <<1:1, 2:32/little>>]]]),
    ok.

all(B) ->
    [catch_match(B, N) || N <- [8, 16, 24, 32, 40, 48, 56, 60, 64]].

catch_match(B, N) ->
    case B of
        <<U:N, _/bitstring>> ->
            <<S:N/signed, _/bitstring>> = B,
            <<L:N/little, _/bitstring>> = B,
            <<LS:N/little-signed, _/bitstring>> = B,
            {N, U, S, L, LS, fixed(B)};
        _ -> {N, short}
    end.

%% Constant sizes (the specialised forms).
fixed(<<A:8, B:16/little, C:32/signed, D:64/little-signed, E:64, F:56/signed, _/bitstring>>) ->
    {A, B, C, D, E, F};
fixed(<<A:8, B:16/little-signed, C:24, _/bitstring>>) -> {A, B, C};
fixed(_) -> short.

sum(<<X:32/big, Y:8, Rest/binary>>, Acc) -> sum(Rest, Acc + X + Y);
sum(<<Z:16/signed-little, Rest/binary>>, Acc) -> sum(Rest, Acc - Z);
sum(<<>>, Acc) -> Acc;
sum(Other, Acc) -> {Acc, Other}.

pairs(<<A:24/little, B:40/signed, Rest/bitstring>>, Acc) -> pairs(Rest, [{A, B} | Acc]);
pairs(Rest, Acc) -> {lists:reverse(Acc), Rest}.

first64(<<X:64, _/binary>>) -> {big, X};
first64(<<X:56, _/binary>>) -> {short, X};
first64(_) -> none.

le(<<X:32/little>>) -> {ok, X};
le(<<X:24/little-signed>>) -> {three, X};
le(B) -> {no, B}.
