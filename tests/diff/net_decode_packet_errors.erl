%% erlang:decode_packet/3's errors: badarg for a type erts does not name,
%% a non-binary, options that are not a list of {packet_size, N},
%% {line_length, N} (N from 0 to 2^32 - 1) or, for line only,
%% {line_delimiter, Byte}; {error, invalid} for malformed or oversized
%% packets; {http_error, Line} packets for HTTP lines that do not parse.
-module(net_decode_packet_errors).
-export([main/0]).

p(Type, Bin, Opts) ->
    io:format("~w ~w ~w: ", [Type, Bin, Opts]),
    outcome:print(fun() -> erlang:decode_packet(Type, Bin, Opts) end).

main() ->
    %% Types.
    [p(T, <<"abc">>, []) || T <- [raw, 0, 1, 2, 4, 3, 5, 8, -1, 1.0, line, http,
                                  foo, "raw", {raw}, [], asn1, sunrm, cdr, fcgi,
                                  tpkt, ssl_tls, httph, http_bin, httph_bin,
                                  http_headers, 'HTTP', 18446744073709551616]],
    %% The data.
    [p(raw, B, []) || B <- ["abc", [<<"abc">>], abc, 1, {<<"a">>}, <<>>]],
    %% The options list.
    [p(raw, <<"abc">>, O) || O <- [foo, {packet_size, 1}, <<>>, 1]],
    [p(T, <<"a\nb">>, [O]) || T <- [raw, line, 2, http],
        O <- [{packet_size, 0}, {packet_size, 4294967295}, {packet_size, 4294967296},
              {packet_size, -1}, {packet_size, 1.0}, {packet_size, "1"},
              {packet_size, 18446744073709551616},
              {line_length, 0}, {line_length, 4294967295}, {line_length, 4294967296},
              {line_length, -1}, {line_delimiter, $b}, {line_delimiter, 0},
              {line_delimiter, 255}, {line_delimiter, 256}, {line_delimiter, -1},
              {line_delimiter, b}, {packet, 1}, {packet_size, 1, 2}, {packet_size},
              packet_size, {"packet_size", 1}, [{packet_size, 1}], {}]],
    p(line, <<"a\nb">>, [{packet_size, 10}, bad]),
    p(line, <<"a\nb">>, [{packet_size, 10}, {line_length, 10}, {line_delimiter, $a}]),
    %% Invalid packets.
    [p(T, B, O) || {T, B, O} <- [{1, <<10, "abc">>, [{packet_size, 9}]},
                                 {4, <<200, 0, 0, 0>>, []},
                                 {line, <<"abcdef">>, [{packet_size, 5}]},
                                 {cdr, <<"XXXXXXXXXXXX">>, []},
                                 {fcgi, <<9, 0, 0, 0, 0, 0, 0, 0>>, []},
                                 {tpkt, <<1, 0, 0, 4>>, []},
                                 {tpkt, <<3, 0, 0, 1>>, []},
                                 {asn1, <<4, 16#88, 1, 2, 3, 4, 5, 6, 7, 8>>, []},
                                 {http, <<"GET / HTTP/1.1\r\n">>, [{packet_size, 4}]},
                                 {http, <<"GET / HTTP/1.1">>, [{packet_size, 4}]},
                                 {httph, <<"Host: x">>, [{line_length, 4}]}]],
    %% HTTP lines that do not parse.
    [p(T, B, []) || T <- [http, http_bin],
        B <- [<<"garbage\r\n">>, <<"\r\n">>, <<"GET\r\n">>, <<"GET /  \r\n">>,
              <<"GET / HTTP/x.1\r\n">>, <<"HTTP/1.1 x\r\n">>, <<"\0\1\2\r\n">>,
              <<"GET / HTTP/1.1\r\n\r\n">>, <<"Host: x\r\n">>]],
    [p(T, B, []) || T <- [httph, httph_bin],
        B <- [<<"garbage\r\n\r\n">>, <<"GET / HTTP/1.1\r\n\r\n">>, <<"a b: c\r\n\r\n">>,
              <<"a\r\n b: c\r\n\r\n">>, <<"x", 127, ": y\r\n\r\n">>]],
    %% Bytes past ASCII (~w: erl 25 and 27 print them differently with ~p).
    [io:format("~w~n", [erlang:decode_packet(T, B, [])]) || {T, B} <- [
        {http, <<"GET ", 200, " HTTP/1.1\r\n">>}, {http_bin, <<200, 201, " / HTTP/1.1\r\n">>},
        {httph, <<233, ": x\r\n\r\n">>}, {httph_bin, <<"a", 233, ": x\r\n\r\n">>}]],
    ok.
