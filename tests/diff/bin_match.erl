-module(bin_match).
-export([main/0]).

%% Matching binaries: fixed and variable sizes, tails, strings, guards.
main() ->
    Packet = <<4:8, "abcd", 16#0102:16, 255, 1:1, 0:7, "rest">>,
    <<Len:8, Name:Len/binary, Port:16, Byte, Flag:1, _:7, Rest/binary>> = Packet,
    p([Len, Name, Port, Byte, Flag, Rest]),
    p([parse(<<"GET /index">>), parse(<<"POST /x">>), parse(<<"??">>)]),
    p([decode(<<1, 0, 5>>), decode(<<2, 3:32/little>>), decode(<<3, 2.5:64/float>>), decode(<<9>>)]),
    p(split(<<"a,bb,,ccc">>, $,)),
    <<A:4, B:4, C/bits>> = <<16#AB, 1:3>>,
    p([A, B, C, bit_size(C)]),
    <<S:16/signed, U:16/unsigned, L:16/little>> = <<255, 254, 255, 254, 1, 2>>,
    p([S, U, L]),
    p([case <<"abc">> of <<"ab", X>> -> X; _ -> no end,
       case <<1, 2>> of <<_:3/binary>> -> three; <<_:2/binary>> -> two end]),
    p([count_ones(<<255, 1, 128>>, 0), [H || <<H:2>> <= <<2#11100100>>]]),
    p([try <<_:8>> = <<>> catch C1:R1 -> {C1, R1} end]),
    ok.

parse(<<"GET ", Path/binary>>) -> {get, Path};
parse(<<"POST ", Path/binary>>) -> {post, Path};
parse(_) -> unknown.

decode(<<1, X:16>>) -> {short, X};
decode(<<2, X:32/little>>) -> {long, X};
decode(<<3, F:64/float>>) -> {float, F};
decode(Other) -> {other, Other}.

split(Bin, Sep) -> split(Bin, Sep, <<>>, []).
split(<<>>, _, Acc, Out) -> lists:reverse([Acc | Out]);
split(<<Sep, Rest/binary>>, Sep, Acc, Out) -> split(Rest, Sep, <<>>, [Acc | Out]);
split(<<C, Rest/binary>>, Sep, Acc, Out) -> split(Rest, Sep, <<Acc/binary, C>>, Out).

count_ones(<<>>, N) -> N;
count_ones(<<B:1, Rest/bits>>, N) -> count_ones(Rest, N + B).

p(X) -> io:format("~p~n", [X]).
