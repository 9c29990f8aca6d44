%% TLS facing garbage: a TLS server fed bytes that are no handshake (plain
%% text, an HTTP request, a record header announcing a huge record, a
%% truncated ClientHello, random bytes) answers with erl's alert or error
%% and goes on serving; a TLS client whose server answers garbage gets
%% erl's error; a server that closes mid-handshake gives `closed`.
-module(ssl_garbage).
-export([main/0]).

chains() ->
    Opts = [{key, {namedCurve, secp256r1}}, {digest, sha256}],
    public_key:pkix_test_data(#{server_chain => #{root => Opts, intermediates => [], peer => Opts},
                                client_chain => #{root => Opts, intermediates => [], peer => Opts}}).

%% Accepts connections for ever, telling Parent how each handshake ended.
server(LSock, Parent) ->
    case ssl:transport_accept(LSock, 20000) of
        {ok, T} ->
            R = ssl:handshake(T, 2000),
            Parent ! {handshake, strip(R)},
            case R of
                {ok, S} -> ssl:close(S);
                _ -> ok
            end,
            server(LSock, Parent);
        {error, closed} -> ok;
        {error, E} -> Parent ! {accept, E}
    end.

strip({ok, _}) -> ok;
strip({error, {tls_alert, {Alert, _Text}}}) -> {error, {tls_alert, Alert}};
strip(Other) -> Other.

%% Sends Bytes on a plain TCP connection; what the TLS server sends back
%% (an alert record's type and level) and how its handshake ended.
feed(Name, Port, Bytes) ->
    {ok, T} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    ok = gen_tcp:send(T, Bytes),
    Back = case gen_tcp:recv(T, 0, 10000) of
               {ok, <<21, 3, _, 0, 2, Level, Desc, _/binary>>} -> {alert, Level, Desc};
               {ok, Other} -> {bytes, byte_size(Other)};
               {error, E} -> E
           end,
    gen_tcp:close(T),
    Server = receive {handshake, R} -> R after 10000 -> none end,
    io:format("~s: back ~p, server ~p~n", [Name, Back, Server]).

%% A client handshake with a server that answers Bytes and closes.
bad_server(Name, Bytes) ->
    {ok, L} = gen_tcp:listen(0, [binary, {active, false}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(L),
    spawn_link(fun() ->
                       {ok, S} = gen_tcp:accept(L, 10000),
                       _ = gen_tcp:recv(S, 0, 10000),
                       gen_tcp:send(S, Bytes),
                       timer:sleep(200),
                       gen_tcp:close(S)
               end),
    R = ssl:connect({127,0,0,1}, Port, [{verify, verify_none}, {active, false}], 10000),
    io:format("~s: client ~p~n", [Name, strip(R)]),
    gen_tcp:close(L).

main() ->
    logger:set_primary_config(level, none),
    {ok, _} = application:ensure_all_started(ssl),
    #{server_config := SC} = chains(),
    {ok, LSock} = ssl:listen(0, [{reuseaddr, true} | SC]),
    {ok, {_, Port}} = ssl:sockname(LSock),
    Self = self(),
    spawn_link(fun() -> server(LSock, Self) end),
    feed("plain text", Port, <<"hello there\r\n">>),
    feed("http request", Port, <<"GET / HTTP/1.1\r\nHost: x\r\n\r\n">>),
    feed("huge record", Port, <<22, 3, 3, 255, 255, 1, 0, 0, 0>>),
    feed("truncated client hello", Port, <<22, 3, 1, 0, 200, 1, 0, 0, 196, 3, 3, 0:64>>),
    feed("zero-length handshake", Port, <<22, 3, 3, 0, 0>>),
    feed("random", Port, rand_bytes(300)),
    %% The server still serves a real client.
    {ok, C} = ssl:connect({127,0,0,1}, Port, [{verify, verify_none}], 10000),
    ssl:close(C),
    io:format("real client after garbage: ~p~n", [receive {handshake, R} -> R after 10000 -> none end]),
    bad_server("server answers text", <<"HTTP/1.1 400 Bad Request\r\n\r\n">>),
    bad_server("server answers an alert", <<21, 3, 3, 0, 2, 2, 40>>),
    bad_server("server closes", <<>>),
    ssl:close(LSock),
    ok.

%% Deterministic bytes (a linear congruential sequence), starting with a
%% handshake record's type so the server reads a length from them.
rand_bytes(N) -> list_to_binary([22 | lcg(N - 1, 12345)]).
lcg(0, _) -> [];
lcg(N, X) -> Y = (X * 1103515245 + 12345) band 16#7fffffff, [(Y bsr 16) band 255 | lcg(N - 1, Y)].
