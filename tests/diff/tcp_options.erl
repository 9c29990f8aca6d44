-module(tcp_options).
-export([main/0]).

%% Socket options: setopts/getopts round trips of each, the addresses
%% inet gives, the errors for bad options, and send_timeout (with and
%% without send_timeout_close) against a peer that never reads.

p(X) -> io:format("~p~n", [X]).

round_trip(S, Opt, Values) ->
    [begin
         R = inet:setopts(S, [{Opt, V}]),
         p({Opt, V, R, inet:getopts(S, [Opt])})
     end || V <- Values].

%% Sends until a send fails (the peer reads nothing): the error.
fill(S, Chunk, N) when N > 0 ->
    case gen_tcp:send(S, Chunk) of
        ok -> fill(S, Chunk, N - 1);
        Error -> Error
    end;
fill(_, _, 0) -> never_failed.

main() ->
    {C, S} = tcp_pair:open([binary], [binary]),
    round_trip(S, nodelay, [true, false]),
    round_trip(S, keepalive, [true, false]),
    round_trip(S, reuseaddr, [true, false]),
    round_trip(S, delay_send, [true, false]),
    round_trip(S, send_timeout, [1000, infinity]),
    round_trip(S, send_timeout_close, [true, false]),
    round_trip(S, exit_on_close, [false, true]),
    round_trip(S, buffer, [4096, 100000]),
    round_trip(S, header, [2, 0]),
    round_trip(S, packet_size, [100, 0]),
    round_trip(S, high_watermark, [16384, 8192]),
    round_trip(S, low_watermark, [2048, 4096]),
    round_trip(S, mode, [list, binary]),
    round_trip(S, tos, [16, 0]),
    %% recbuf and sndbuf: the OS may round what it is given; the socket
    %% reports what the OS holds, and a buffer at least that large.
    ok = inet:setopts(S, [{recbuf, 65536}, {sndbuf, 65536}]),
    {ok, [{recbuf, R}, {sndbuf, Sn}, {buffer, B}]} = inet:getopts(S, [recbuf, sndbuf, buffer]),
    p({bufs, R >= 65536, Sn >= 65536, B >= 65536 orelse B}),
    %% Bad options and values.
    [p({bad, O, inet:setopts(S, [O])}) ||
        O <- [{nodelay, 'maybe'}, {send_timeout, -1}, {buffer, -1},
              {keepalive, 1}, {no_such_option, true}, nodelay, {packet, 7},
              {mode, text}, {header, -1}]],
    p(inet:getopts(S, [no_such_option])),
    p(inet:getopts(S, [nodelay, no_such_option])),
    %% Addresses.
    {ok, {CIp, CPort}} = inet:sockname(C),
    p({CIp, inet:peername(S) =:= {ok, {CIp, CPort}}}),
    p(inet:port(C) =:= {ok, CPort}),
    %% send_timeout against a peer that reads nothing: {error, timeout};
    %% the socket stays open, or is closed with send_timeout_close.
    Chunk = binary:copy(<<"x">>, 65536),
    ok = inet:setopts(S, [{send_timeout, 200}]),
    p(fill(S, Chunk, 2000)),
    p(erlang:port_info(S, connected) =/= undefined),
    {C2, S2} = tcp_pair:open([binary, {send_timeout, 200}, {send_timeout_close, true}], [binary]),
    p(fill(S2, Chunk, 2000)),
    p(gen_tcp:send(S2, <<"x">>)),
    [gen_tcp:close(X) || X <- [C, S, C2, S2]].
