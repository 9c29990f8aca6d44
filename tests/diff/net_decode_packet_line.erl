%% erlang:decode_packet/3 with line: a packet up to and including the
%% delimiter ($\n, or line_delimiter); line_length cuts a longer line (the
%% rest is the next packet) and cuts a line not ended yet once that much
%% has arrived; packet_size makes a longer line invalid, ended or not.
-module(net_decode_packet_line).
-export([main/0]).

d(Bin) -> d(Bin, []).

d(Bin, Opts) ->
    io:format("~p ~w~n  -> ~p~n", [Bin, Opts, erlang:decode_packet(line, Bin, Opts)]).

main() ->
    [d(B) || B <- [<<>>, <<"\n">>, <<"abc">>, <<"abc\n">>, <<"abc\ndef\n">>,
                   <<"abc\r\n">>, <<"\n\n">>, <<"a\rb\n">>, <<0, 10, 0>>]],
    %% Another delimiter.
    [d(B, [{line_delimiter, C}]) || B <- [<<"a;b;c">>, <<"abc\n">>, <<";">>, <<>>, <<"a\0b">>],
                                    C <- [$;, 0, $\n, 255]],
    %% (~w: erl 25 and 27 print bytes past ASCII differently with ~p.)
    io:format("~w~n", [erlang:decode_packet(line, <<"a", 255, "b">>, [{line_delimiter, 255}])]),
    d(<<"a;b\nc">>, [{line_delimiter, $;}, {line_delimiter, $\n}]),
    %% line_length.
    [d(B, [{line_length, N}]) || B <- [<<"abcdef\n">>, <<"abcdef">>, <<"abc">>, <<"ab\ncdef">>, <<>>],
                                 N <- [0, 1, 2, 3, 6, 7, 8]],
    %% packet_size.
    [d(B, [{packet_size, N}]) || B <- [<<"abcdef\n">>, <<"abcdef">>, <<"abc">>, <<"ab\ncdef">>, <<>>],
                                 N <- [0, 1, 3, 6, 7, 8]],
    %% Both: packet_size is looked at first.
    [d(<<"abcdef\n">>, Opts) || Opts <- [[{packet_size, 5}, {line_length, 3}],
                                         [{packet_size, 7}, {line_length, 3}],
                                         [{packet_size, 3}, {line_length, 7}],
                                         [{line_length, 3}, {packet_size, 8}]]],
    [d(<<"abcdef">>, Opts) || Opts <- [[{packet_size, 5}, {line_length, 3}],
                                       [{packet_size, 6}, {line_length, 3}],
                                       [{packet_size, 10}, {line_length, 7}]]],
    %% Reading line after line, cut at 4.
    loop(<<"one\ntwo\nthree\nfourteen\nfive">>, [{line_length, 4}]),
    loop(<<"k1=v1;k2=v2;;end">>, [{line_delimiter, $;}]),
    ok.

loop(Bin, Opts) ->
    case erlang:decode_packet(line, Bin, Opts) of
        {ok, P, Rest} -> io:format("  line ~p~n", [P]), loop(Rest, Opts);
        Other -> io:format("  then ~p~n", [Other])
    end.
