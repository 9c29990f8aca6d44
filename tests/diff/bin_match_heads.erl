-module(bin_match_heads).
-export([main/0]).

%% The heads of matching loops that the loader fuses into one instruction
%% (bs_start_match, bs_get_position, up to four bs_get_integer2 and a
%% bs_test_unit): every way one of them can fail partway, and the
%% registers and position the fail path then sees.
main() ->
    Bin = list_to_binary([(I * 53 + 7) rem 256 || I <- lists:seq(1, 60)]),
    io:format("~p~n", [sum(Bin, 0)]),
    %% Too short for the second integer, then for the first.
    io:format("~p~n", [sum(<<1, 2, 3, 4>>, 0)]),
    io:format("~p~n", [sum(<<1, 2, 3, 4, 5, 6, 7>>, 0)]),
    %% A bitstring: the unit test fails after both reads.
    io:format("~p~n", [sum(<<1, 2, 3, 4, 5, 6:4>>, 0)]),
    io:format("~p~n", [sum(<<1, 2, 3, 4, 5, 6, 7:3>>, 0)]),
    %% Unaligned start (a sub-binary at a bit offset).
    <<_:5, Odd/bitstring>> = <<Bin/binary, 0:3>>,
    io:format("~p~n", [sum(Odd, 0)]),
    %% A sub-binary of a larger refc binary, and of a heap binary.
    Big = binary:copy(Bin, 10),
    io:format("~p~n", [sum(binary:part(Big, 5, 500), 0)]),
    io:format("~p~n", [sum(binary:part(Bin, 1, 10), 0)]),
    %% Prefix shared between clauses: the first integer is read once and
    %% used by the clause the second read's failure leads to.
    io:format("~p~n", [[shared(B) || B <- [<<7, 1, 2>>, <<7, 9>>, <<7>>, <<>>, <<7, 200, 1:1>>]]]),
    %% Four and five integers in a row, signed and little-endian,
    %% and 64-bit values past the small-integer range.
    io:format("~p~n", [quads(list_to_binary(lists:seq(1, 45)), [])]),
    io:format("~p~n", [five(<<-1:64, 255, 1:16/little, -2:8/signed, 3:32/little-signed, 9>>)]),
    io:format("~p~n", [five(<<-1:64, 255, 1:16/little, -2:8/signed, 3:32/little-signed>>)]),
    io:format("~p~n", [wide(<<-1:64, 1:64, 16#8000000000000000:64>>, [])]),
    %% Not a binary: the function clause error and its arguments.
    io:format("~p~n", [catch_error(fun() -> sum(not_a_binary, 0) end)]),
    io:format("~p~n", [catch_error(fun() -> strict(<<1, 2, 3>>) end)]),
    io:format("~p~n", [catch_error(fun() -> strict(12) end)]),
    %% The context kept across a call (a Y register).
    io:format("~p~n", [across(<<1:16, 2:16, 3:8, 4:8>>)]),
    ok.

sum(<<X:32/big, Y:8, Rest/binary>>, Acc) -> sum(Rest, Acc + X + Y);
sum(<<>>, Acc) -> Acc;
sum(Other, Acc) -> {Acc, Other}.

shared(<<A:8, B:8, C:8>>) -> {three, A, B, C};
shared(<<A:8, B:8, Rest/bitstring>>) -> {two, A, B, Rest};
shared(<<A:8>>) -> {one, A};
shared(Other) -> {other, Other}.

quads(<<A:8, B:16/signed, C:8/little, D:24, Rest/binary>>, Acc) ->
    quads(Rest, [{A, B, C, D} | Acc]);
quads(Rest, Acc) -> {lists:reverse(Acc), Rest}.

five(<<A:64/signed, B:8, C:16/little, D:8/signed, E:32/little-signed, F:8>>) -> {A, B, C, D, E, F};
five(<<A:64, Rest/binary>>) -> {short, A, Rest}.

wide(<<A:64, Rest/binary>>, Acc) -> wide(Rest, [A | Acc]);
wide(<<>>, Acc) -> lists:reverse(Acc).

strict(<<A:8, B:8>>) -> A + B.

across(<<A:16, B:16, Rest/binary>>) ->
    N = length(integer_to_list(A)),
    <<C:8, D:8>> = Rest,
    {N, A, B, C, D}.

catch_error(F) ->
    try F() of
        V -> {ok, V}
    catch
        C:R:S -> {C, R, [{M, Fn, A} || {M, Fn, A, _} <- lists:sublist(S, 1)]}
    end.
