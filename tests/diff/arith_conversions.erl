-module(arith_conversions).
-export([main/0]).

%% Integer <-> text conversions in several bases, and their errors.
main() ->
    io:format("~p~n", [[integer_to_list(N, B) || N <- [0, 255, -255, 1 bsl 65],
                                                B <- [2, 8, 10, 16, 36]]]),
    io:format("~p~n", [[integer_to_binary(N, 16) || N <- [0, 3054, -48879]]]),
    io:format("~p~n", [[list_to_integer(S) || S <- ["0", "-12", "+12", "007",
                                                    "123456789012345678901234567890"]]]),
    io:format("~p~n", [[list_to_integer(S, B) || {S, B} <- [{"ff", 16}, {"FF", 16},
                                                         {"-zz", 36}, {"101", 2}]]]),
    io:format("~p~n", [[binary_to_integer(<<"-99">>), binary_to_integer(<<"7f">>, 16)]]),
    Bad = [fun() -> list_to_integer("12a") end,
           fun() -> list_to_integer("") end,
           fun() -> list_to_integer("-") end,
           fun() -> list_to_integer("2", 2) end,
           fun() -> list_to_integer("1", 37) end,
           fun() -> binary_to_integer(<<" 1">>) end,
           fun() -> integer_to_list(1.0) end],
    [io:format("~p~n", [try F() catch C:R -> {C, R} end]) || F <- Bad],
    io:format("~p~n", [[string:to_integer("42abc"), string:to_integer("abc"),
                        string:to_float("3.5e2x"), string:to_float("3")]]),
    io:format("~p~n", [[list_to_float("1.5"), list_to_float("-0.0"),
                        binary_to_float(<<"2.5e-3">>)]]),
    ok.
