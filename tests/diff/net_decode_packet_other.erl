%% erlang:decode_packet/3 with the protocol types: asn1 (BER tags and
%% lengths, short and long), cdr (GIOP headers, both byte orders), sunrm
%% (record marks), fcgi (the padding dropped from the body), tpkt and
%% ssl_tls (records and SSLv2 hellos); whole, incomplete, malformed and
%% over packet_size. Their bodies keep the header.
-module(net_decode_packet_other).
-export([main/0]).

d(Type, Bin) -> d(Type, Bin, []).

d(Type, Bin, Opts) ->
    io:format("~w ~w ~w~n  -> ~w~n", [Type, Bin, Opts, erlang:decode_packet(Type, Bin, Opts)]).

main() ->
    %% asn1: tag, length, contents.
    [d(asn1, B) || B <- [<<>>, <<16#30>>, <<16#30, 0>>, <<16#30, 3, 1, 2, 3, 4>>,
                         <<16#30, 3, 1, 2>>, <<16#04, 16#81, 2, "ab">>,
                         <<16#04, 16#81>>, <<16#04, 16#82, 0, 3, "abc">>,
                         <<16#04, 16#82, 1, 0>>, <<16#04, 16#83, 0, 0, 2, "ab">>,
                         <<16#04, 16#84, 0, 0, 0, 1, "a">>, <<16#04, 16#84, 0, 0>>,
                         <<16#04, 16#84, 127, 255, 255, 255>>,
                         <<16#04, 16#80, "rest">>, <<16#04, 16#85, 0, 0, 0, 0, 1>>,
                         <<16#04, 16#85, 0, 0>>, <<16#04, 16#ff, 0>>,
                         <<16#1f, 16#81, 16#01, 2, "ab">>, <<16#1f, 16#01, 1, "a">>,
                         <<16#1f, 16#81>>, <<16#1f, 16#81, 16#82>>, <<16#1f, 16#81, 16#01>>,
                         <<16#3f, 16#7f, 0>>, <<16#bf, 16#81, 16#80, 16#01, 16#81, 1, "x">>]],
    [d(asn1, <<16#30, 3, 1, 2, 3>>, [{packet_size, N}]) || N <- [2, 3, 4]],
    %% cdr: "GIOP", version, flags (bit 0: little-endian size), type, size.
    Giop = fun(Flags, Size) -> <<"GIOP", 1, 2, Flags, 0, Size/binary>> end,
    [d(cdr, B) || B <- [<<>>, <<"GIOP">>, <<"GIOP", 1, 0, 0, 0, 0, 0, 0>>,
                        <<(Giop(0, <<0, 0, 0, 2>>))/binary, "ab">>,
                        <<(Giop(0, <<0, 0, 0, 2>>))/binary, "abcd">>,
                        <<(Giop(1, <<2, 0, 0, 0>>))/binary, "ab">>,
                        <<(Giop(1, <<2, 0, 0, 0>>))/binary, "a">>,
                        <<(Giop(2, <<0, 0, 0, 1>>))/binary, "z">>,
                        <<(Giop(3, <<1, 0, 0, 0>>))/binary, "z">>,
                        Giop(0, <<0, 0, 1, 0>>), Giop(0, <<0, 0, 0, 0>>),
                        Giop(0, <<255, 255, 255, 255>>), Giop(1, <<255, 255, 255, 127>>),
                        <<"giop", 1, 2, 0, 0, 0, 0, 0, 0>>, <<"GIOQ", 1, 2, 0, 0, 0, 0, 0, 0, "x">>]],
    [d(cdr, <<(Giop(0, <<0, 0, 0, 2>>))/binary, "ab">>, [{packet_size, N}]) || N <- [1, 2, 14]],
    %% sunrm: a 31-bit length; the top bit (the last fragment) is ignored.
    [d(sunrm, B) || B <- [<<>>, <<0, 0, 0>>, <<0, 0, 0, 0>>, <<0, 0, 0, 2, "ab">>,
                          <<128, 0, 0, 2, "abcd">>, <<128, 0, 0, 3, "ab">>,
                          <<0, 0, 1, 0>>, <<255, 255, 255, 255>>, <<127, 255, 255, 251>>,
                          <<127, 255, 255, 252>>]],
    [d(sunrm, <<128, 0, 0, 2, "ab">>, [{packet_size, N}]) || N <- [1, 2]],
    %% fcgi: version 1, type, id, content length, padding length, reserved.
    [d(fcgi, B) || B <- [<<>>, <<1, 1, 0, 1, 0, 2, 1>>, <<1, 1, 0, 1, 0, 2, 1, 0, "ab">>,
                         <<1, 1, 0, 1, 0, 2, 1, 0, "abP">>, <<1, 1, 0, 1, 0, 2, 1, 0, "abPnext">>,
                         <<1, 1, 0, 1, 0, 0, 0, 0>>, <<1, 1, 0, 1, 0, 0, 3, 0, "PPP">>,
                         <<1, 5, 0, 1, 1, 0, 0, 0>>, <<2, 1, 0, 1, 0, 0, 0, 0>>,
                         <<0, 1, 0, 1, 0, 0, 0, 0>>, <<1, 1, 0, 1, 255, 255, 255, 0>>]],
    [d(fcgi, <<1, 1, 0, 1, 0, 2, 1, 0, "abP">>, [{packet_size, N}]) || N <- [2, 3]],
    %% tpkt: version 3, reserved, length (header included).
    [d(tpkt, B) || B <- [<<>>, <<3, 0, 0>>, <<3, 0, 0, 4>>, <<3, 0, 0, 6, "ab">>,
                         <<3, 0, 0, 6, "abcd">>, <<3, 0, 0, 6, "a">>, <<3, 9, 1, 0>>,
                         <<3, 0, 0, 3>>, <<3, 0, 0, 0>>, <<2, 0, 0, 4>>, <<4, 0, 0, 4>>]],
    [d(tpkt, <<3, 0, 0, 6, "ab">>, [{packet_size, N}]) || N <- [1, 2]],
    %% ssl_tls: a record; an SSLv2 client hello becomes a handshake.
    [d(ssl_tls, B) || B <- [<<>>, <<22, 3, 1, 0>>, <<22, 3, 1, 0, 0>>, <<22, 3, 3, 0, 2, "ab">>,
                            <<23, 3, 3, 0, 2, "abcd">>, <<21, 3, 3, 0, 5, "ab">>,
                            <<128, 8, 1, 3, 1, "abcdefgh">>, <<128, 8, 1, 3, 1, "ab">>,
                            <<128, 5, 1, 3, 0, "xx">>, <<128, 2, 1, 3, 0>>]],
    [d(ssl_tls, <<22, 3, 3, 0, 2, "ab">>, [{packet_size, N}]) || N <- [1, 2]],
    ok.
