-module(bin_bitstrings).
-export([main/0]).

%% Bitstrings that are not whole bytes: printing, sizes, concatenation,
%% comparison and conversion.
main() ->
    Bs = [<<1:1>>, <<5:3>>, <<255, 1:2>>, <<1:15>>, <<-1:9>>, <<0:0>>],
    [io:format("~w ~p ~w ~w~n", [B, B, bit_size(B), byte_size(B)]) || B <- Bs],
    io:format("~w~n", [<< <<B/bits>> || B <- Bs >>]),
    io:format("~w~n", [lists:sort(Bs)]),
    io:format("~w~n", [[<<1:1>> < <<1>>, <<0:1>> < <<1:1>>, <<1, 0:1>> > <<1>>]]),
    io:format("~w~n", [bitstring_to_list(<<1, 2, 3:4>>)]),
    io:format("~w~n", [erlang:list_to_bitstring([<<1:2>>, [<<3:2>>], <<15:4>>])]),
    io:format("~p~n", [catch list_to_binary([<<1:2>>])]),
    io:format("~w~n", [binary_to_term(term_to_binary(<<7:5>>))]),
    <<H:5, T/bits>> = <<16#F0F0:16>>,
    io:format("~w ~w~n", [H, T]),
    ok.
