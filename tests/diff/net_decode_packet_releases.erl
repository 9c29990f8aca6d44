%% erlang:decode_packet/3 where releases differ (this program prints
%% differently on OTP 25 and on 26 and later; beamr follows the release
%% it runs): a bracketed IPv6 host in an absolute URI keeps its colons
%% from OTP 26 on (before, the host ends at the first colon), and a
%% bitstring is badarg from OTP 26 on (before, its whole bytes are read
%% and the bits left over end the rest).
-module(net_decode_packet_releases).
-export([main/0]).

p(Type, Bin) ->
    io:format("~w ~p: ", [Type, Bin]),
    outcome:print(fun() -> erlang:decode_packet(Type, Bin, []) end).

main() ->
    [p(T, iolist_to_binary(["GET ", U, " HTTP/1.1\r\n"])) || T <- [http, http_bin],
        U <- ["http://[::1]:4000/x", "http://[::1]/x", "https://[::1]", "http://[::1]:",
              "http://[::1]:0/", "http://[::1]:80x/", "http://[fe80::1%25eth0]:8080/a",
              "http://[::1]x:80/", "http://[::1", "http://x[::1]:80/", "http://[]:1/"]],
    [p(T, B) || {T, B} <- [{raw, <<1:3>>}, {raw, <<"ab", 1:3>>}, {1, <<"ab", 1:3>>},
                           {1, <<1, "ab", 5:4>>}, {2, <<0, 1, "a", 1:1>>},
                           {line, <<"a\nb", 0:7>>}, {http, <<"GET / HTTP/1.1\r\n", 1:2>>}]],
    ok.
