-module(bin_errors).
-export([main/0]).

%% Errors building and matching binaries, with their stack traces.
main() ->
    Cases = [fun() -> <<(id(1.5)):8>> end,
             fun() -> <<(id(a))/binary>> end,
             fun() -> <<(id(<<1:3>>))/binary>> end,
             fun() -> <<(id(1)):(id(-8))>> end,
             fun() -> <<(id(1.0)):(id(16))/float>> end,
             fun() -> <<(id(1)):7/float>> end,
             fun() -> <<(id(16#110000))/utf8>> end,
             fun() -> <<(id(-1))/utf16>> end,
             fun() -> <<(id(<<"abc">>)):4/binary>> end,
             fun() -> <<X:8>> = id(<<1, 2>>), X end,
             fun() -> A = id(a), <<_:A>> = id(<<1>>) end,
             fun() -> binary_to_list(id(<<1:3>>)) end,
             fun() -> byte_size(id(foo)) end,
             fun() -> bit_size(id([])) end,
             fun() -> binary_part(id(<<1, 2>>), 1, 5) end],
    [io:format("~p~n", [try F() catch C:R:S -> {C, R, hd(S)} end]) || F <- Cases],
    ok.

id(X) -> X.
