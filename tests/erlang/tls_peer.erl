%% One end of a TLS connection for beamr-cli's tls_interop test, run by
%% erl or by beamr with the plain arguments `server Version Dir` or
%% `client Version Dir`.
%%
%% The server makes a certificate chain with public_key:pkix_test_data/1
%% (ECDSA P-256), listens on a free loopback port, writes the port and the
%% client's options (the root to trust) to Dir/server.info, echoes what
%% one client sends until it closes, and prints "server done Protocol".
%% The client waits for that file, connects with verify_peer, sends a
%% line and a 100 000-byte message, checks their echoes and prints
%% "client ok Protocol".
%%
%% For `openssl s_client` and `s_server`: the server also writes the root
%% as Dir/ca.pem and its port as Dir/port, and `server_once` closes after
%% echoing the first data it gets; `client_rev` connects to the port in
%% Dir/port, trusting Dir/ca.pem, sends a line to an `s_server -rev` and
%% checks it comes back reversed.
-module(tls_peer).
-export([main/0]).

main() ->
    [Role, Version, Dir] = init:get_plain_arguments(),
    logger:set_primary_config(level, error),
    {ok, _} = application:ensure_all_started(ssl),
    case Role of
        "server" -> server(list_to_atom(Version), Dir, many);
        "server_once" -> server(list_to_atom(Version), Dir, once);
        "client_rev" -> client_rev(list_to_atom(Version), Dir);
        "client" -> client(list_to_atom(Version), Dir)
    end.

server(Version, Dir, Echoes) ->
    Opts = [{key, {namedCurve, secp256r1}}, {digest, sha256}],
    #{server_config := SC, client_config := CC} =
        public_key:pkix_test_data(#{server_chain => #{root => Opts, intermediates => [], peer => Opts},
                                    client_chain => #{root => Opts, intermediates => [], peer => Opts}}),
    {ok, L} = ssl:listen(0, [{versions, [Version]}, {ip, {127, 0, 0, 1}}, {active, true}, {mode, binary} | SC]),
    {ok, {_, Port}} = ssl:sockname(L),
    Info = filename:join(Dir, "server.info"),
    Pem = public_key:pem_encode([{'Certificate', C, not_encrypted}
                                 || C <- proplists:get_value(cacerts, CC)]),
    ok = file:write_file(filename:join(Dir, "ca.pem"), Pem),
    ok = file:write_file(filename:join(Dir, "port"), integer_to_list(Port)),
    ok = file:write_file(Info ++ ".tmp", term_to_binary({Port, CC})),
    ok = file:rename(Info ++ ".tmp", Info),
    {ok, T} = ssl:transport_accept(L, 60000),
    {ok, S} = ssl:handshake(T, 60000),
    {ok, [{protocol, P}]} = ssl:connection_information(S, [protocol]),
    echo(S, Echoes),
    io:format("server done ~p~n", [P]).

echo(S, Echoes) ->
    receive
        {ssl, S, Data} when Echoes =:= once -> ok = ssl:send(S, Data), ssl:close(S);
        {ssl, S, Data} -> ok = ssl:send(S, Data), echo(S, Echoes);
        {ssl_closed, S} -> ok
    after 60000 -> exit(echo_timeout)
    end.

client(Version, Dir) ->
    {Port, CC} = wait_info(filename:join(Dir, "server.info"), 1500),
    {ok, S} = ssl:connect({127, 0, 0, 1}, Port,
                          [{versions, [Version]}, {verify, verify_peer},
                           {server_name_indication, disable}, {active, false}, {mode, binary} | CC], 60000),
    {ok, [{protocol, P}]} = ssl:connection_information(S, [protocol]),
    [begin
         ok = ssl:send(S, M),
         M = recv(S, byte_size(M), <<>>)
     end || M <- [<<"hello over TLS\n">>, binary:copy(<<"0123456789">>, 10000)]],
    ok = ssl:close(S),
    io:format("client ok ~p~n", [P]).

client_rev(Version, Dir) ->
    {ok, PortText} = file:read_file(filename:join(Dir, "port")),
    {ok, Pem} = file:read_file(filename:join(Dir, "ca.pem")),
    CAs = [Der || {'Certificate', Der, not_encrypted} <- public_key:pem_decode(Pem)],
    {ok, S} = ssl:connect({127, 0, 0, 1}, binary_to_integer(PortText),
                          [{versions, [Version]}, {verify, verify_peer}, {cacerts, CAs},
                           {server_name_indication, disable}, {active, false}, {mode, binary}], 60000),
    {ok, [{protocol, P}]} = ssl:connection_information(S, [protocol]),
    ok = ssl:send(S, <<"hello over TLS\n">>),
    <<"SLT revo olleh\n">> = recv(S, 15, <<>>),
    ok = ssl:close(S),
    io:format("client ok ~p~n", [P]).

recv(_, 0, Acc) -> Acc;
recv(S, Left, Acc) ->
    {ok, D} = ssl:recv(S, 0, 60000),
    recv(S, Left - byte_size(D), <<Acc/binary, D/binary>>).

wait_info(_, 0) -> exit(no_server_info);
wait_info(File, N) ->
    case file:read_file(File) of
        {ok, B} -> binary_to_term(B);
        {error, _} -> timer:sleep(100), wait_info(File, N - 1)
    end.
