-module(str_unicode).
-export([main/0]).

%% unicode module conversions and printing of unicode strings.
main() ->
    S = "Zürich €5 日本",
    B = unicode:characters_to_binary(S),
    io:format("~w~n", [B]),
    io:format("~w~n", [unicode:characters_to_list(B)]),
    io:format("~w~n", [unicode:characters_to_binary(S, unicode, utf16)]),
    io:format("~w~n", [unicode:characters_to_list(<<"abc">>, latin1)]),
    io:format("~w~n", [unicode:characters_to_binary([<<"a">>, "b", [$c, 228]])]),
    io:format("~p~n", [unicode:characters_to_binary(<<255, 254>>)]),
    io:format("~p~n", [unicode:characters_to_list([16#110000])]),
    io:format("~ts~n", [S]),
    io:format("~ts~n", [B]),
    io:format("~tp~n", [S]),
    io:format("~p~n", [S]),
    io:format("~tp~n", [B]),
    io:format("~p~n", [[1024, 1025]]),
    io:format("~w~n", [[string:length(S), length(S), byte_size(B)]]),
    io:format("~w~n", [unicode:bom_to_encoding(<<239, 187, 191, 1>>)]),
    io:format("~ts~n", [string:uppercase(S)]),
    io:format("~w~n", [[unicode_util:gc(S) =/= [], io_lib:printable_unicode_list(S), io_lib:printable_list(S)]]),
    ok.
