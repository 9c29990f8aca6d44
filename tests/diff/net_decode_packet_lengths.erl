%% erlang:decode_packet/3 with the length types: raw (and 0) takes
%% everything; 1, 2 and 4 read a big-endian length header, and give the
%% body without it; {more, Length} names the whole packet's length, header
%% included; packet_size bounds the body; a length past erts's own bound
%% is invalid.
-module(net_decode_packet_lengths).
-export([main/0]).

d(Type, Bin) -> d(Type, Bin, []).

d(Type, Bin, Opts) ->
    io:format("~w ~w ~w~n  -> ~w~n", [Type, Bin, Opts, erlang:decode_packet(Type, Bin, Opts)]).

main() ->
    [d(T, B) || T <- [raw, 0], B <- [<<>>, <<"a">>, <<"abc">>, <<0, 1, 2, 255>>]],
    d(raw, <<"abc">>, [{packet_size, 1}]),
    d(raw, <<"abc">>, [{line_length, 1}]),
    [d(1, B) || B <- [<<>>, <<0>>, <<0, "rest">>, <<1>>, <<1, "a">>, <<1, "ab">>,
                      <<3, "ab">>, <<5, "hello world">>, <<255>>, <<255, 0:2032>>]],
    [d(2, B) || B <- [<<>>, <<0>>, <<0, 0>>, <<0, 2, "ab">>, <<0, 2, "a">>,
                      <<0, 3, "abcd">>, <<1, 0>>, <<1, 0, 0:2048>>, <<255, 255, "x">>]],
    [d(4, B) || B <- [<<>>, <<0, 0, 0>>, <<0, 0, 0, 0>>, <<0, 0, 0, 1, "xy">>,
                      <<0, 0, 0, 5, "abc">>, <<0, 0, 1, 0, "abc">>, <<1, 0, 0, 0>>,
                      <<127, 255, 255, 251>>, <<127, 255, 255, 252>>,
                      <<128, 0, 0, 0>>, <<255, 255, 255, 255>>]],
    %% packet_size bounds the body's length, not the header's.
    [d(T, B, [{packet_size, N}]) || {T, B} <- [{1, <<3, "abc">>}, {2, <<0, 3, "abc">>},
                                                {4, <<0, 0, 0, 3, "abc">>}, {4, <<0, 0, 0, 3>>}],
                                    N <- [0, 1, 2, 3, 4, 100]],
    d(4, <<0, 0, 0, 3>>, [{packet_size, 2}, {packet_size, 3}]),
    d(4, <<0, 0, 0, 3>>, [{packet_size, 3}, {packet_size, 2}]),
    d(4, <<255, 255, 255, 0>>, [{packet_size, 4294967295}]),
    d(4, <<127, 255, 255, 251, "x">>, [{packet_size, 4294967295}]),
    d(2, <<0, 2, "ab">>, [{line_length, 1}]),
    %% A sub-binary in, sub-binaries out.
    <<_:3/binary, Sub/binary>> = <<"xyz", 0, 2, "hi", 0, 1, "!">>,
    {ok, P1, R1} = erlang:decode_packet(2, Sub, []),
    {ok, P2, R2} = erlang:decode_packet(2, R1, []),
    io:format("~p ~p ~p ~p~n", [P1, R1, P2, R2]),
    %% Packets one after another.
    loop(1, <<2, "ab", 0, 3, "cde", 1>>),
    loop(2, <<0, 1, "a", 0, 0, 0, 2, "bc">>),
    ok.

loop(Type, Bin) ->
    case erlang:decode_packet(Type, Bin, []) of
        {ok, P, Rest} -> io:format("  packet ~p~n", [P]), loop(Type, Rest);
        Other -> io:format("  then ~p~n", [Other])
    end.
