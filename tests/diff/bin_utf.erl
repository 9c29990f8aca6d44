-module(bin_utf).
-export([main/0]).

%% UTF-8/16/32 segments in construction and matching.
main() ->
    Cs = [$a, 233, 8364, 128512, 0, 1114111],
    [io:format("~w ~w ~w ~w~n", [C, <<C/utf8>>, <<C/utf16>>, <<C/utf32-little>>]) || C <- Cs],
    Bin = unicode:characters_to_binary("héllo €"),
    io:format("~w~n", [[C || <<C/utf8>> <= Bin]]),
    <<First/utf8, Rest/binary>> = Bin,
    io:format("~w ~w~n", [First, Rest]),
    io:format("~w~n", [[C || <<C/utf16-little>> <= <<"h"/utf16-little, 8364/utf16-little>>]]),
    io:format("~p~n", [try <<16#D800/utf8>> catch C1:R1 -> {C1, R1} end]),
    io:format("~p~n", [case <<255, 1>> of <<X/utf8, _/binary>> -> X; _ -> invalid end]),
    ok.
