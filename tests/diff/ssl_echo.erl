%% OTP's ssl between two processes of one node: a TLS 1.3 and a TLS 1.2
%% echo server on loopback with a certificate chain made at test time by
%% public_key:pkix_test_data/1 (RSA and ECDSA keys), a client that checks
%% the server's chain (verify_peer against the test root) and sends lines
%% to be echoed, the negotiated protocol and cipher suite, a client
%% certificate the server asks for, and a client that trusts another root
%% (the handshake fails with erl's alert).
-module(ssl_echo).
-export([main/0]).

chains(Key) ->
    Opts = [{key, Key}, {digest, sha256}],
    public_key:pkix_test_data(#{server_chain => #{root => Opts, intermediates => [Opts], peer => Opts},
                                client_chain => #{root => Opts, intermediates => [], peer => Opts}}).

server(LSock, Parent) ->
    case ssl:transport_accept(LSock, 10000) of
        {ok, T} ->
            case ssl:handshake(T, 10000) of
                {ok, S} ->
                    Parent ! {server, ok, peercert(S)},
                    echo(S);
                {error, E} ->
                    Parent ! {server, error, E}
            end;
        {error, E} ->
            Parent ! {server, accept_error, E}
    end.

peercert(S) ->
    case ssl:peercert(S) of
        {ok, C} when is_binary(C) -> client_cert;
        {error, E} -> E
    end.

echo(S) ->
    receive
        {ssl, S, Data} ->
            ok = ssl:send(S, Data),
            echo(S);
        {ssl_closed, S} ->
            ok
    after 10000 ->
        timeout
    end.

recv_all(_, Want, Acc) when byte_size(Acc) >= Want -> Acc;
recv_all(S, Want, Acc) ->
    receive
        {ssl, S, D} -> recv_all(S, Want, <<Acc/binary, (iolist_to_binary(D))/binary>>)
    after 10000 -> {timeout, Acc}
    end.

run(Name, Version, Key, ClientCert) ->
    #{server_config := SC0, client_config := CC0} = chains(Key),
    SC = [{versions, [Version]}, {reuseaddr, true}, {active, true}
          | case ClientCert of
                true -> [{verify, verify_peer}, {fail_if_no_peer_cert, true}];
                false -> [{verify, verify_none}]
            end] ++ SC0,
    CC = [{versions, [Version]}, {verify, verify_peer}, {server_name_indication, disable}, {active, true}
          | case ClientCert of
                true -> CC0;
                false -> [O || {K, _} = O <- CC0, K =/= cert, K =/= key]
            end],
    {ok, LSock} = ssl:listen(0, SC),
    {ok, {_, Port}} = ssl:sockname(LSock),
    Self = self(),
    spawn_link(fun() -> server(LSock, Self) end),
    {ok, C} = ssl:connect({127,0,0,1}, Port, CC, 10000),
    receive {server, ok, Peer} -> io:format("~s: handshake ok, server sees ~p~n", [Name, Peer]) after 10000 -> io:format("~s: no server handshake~n", [Name]) end,
    {ok, [{protocol, P}, {selected_cipher_suite, Suite}]} = ssl:connection_information(C, [protocol, selected_cipher_suite]),
    io:format("  ~p ~p~n", [P, lists:sort(maps:to_list(Suite))]),
    Lines = [<<"hello">>, binary:copy(<<"x">>, 70000), <<"bye">>],
    [begin
         ok = ssl:send(C, L),
         R = recv_all(C, byte_size(L), <<>>),
         io:format("  echo ~p bytes: ~p~n", [byte_size(L), R =:= L])
     end || L <- Lines],
    ok = ssl:close(C),
    ok = ssl:close(LSock).

bad_root(Name, Version) ->
    #{server_config := SC0} = chains({namedCurve, secp256r1}),
    #{client_config := CC0} = chains({namedCurve, secp256r1}),
    {ok, LSock} = ssl:listen(0, [{versions, [Version]}, {reuseaddr, true} | SC0]),
    {ok, {_, Port}} = ssl:sockname(LSock),
    Self = self(),
    spawn_link(fun() -> server(LSock, Self) end),
    R = ssl:connect({127,0,0,1}, Port, [{versions, [Version]}, {verify, verify_peer}, {server_name_indication, disable} | CC0], 10000),
    io:format("~s: client ~p~n", [Name, alert(R)]),
    receive {server, What, E} -> io:format("  server ~p ~p~n", [What, alert(E)]) after 10000 -> io:format("  server: nothing~n") end,
    ssl:close(LSock).

%% An alert without its text, which names the state and line it was sent
%% from.
alert({error, E}) -> {error, alert(E)};
alert({tls_alert, {Alert, _Text}}) -> {tls_alert, Alert};
alert(E) -> E.

main() ->
    logger:set_primary_config(level, error),
    {ok, _} = application:ensure_all_started(ssl),
    run("tls 1.3 rsa", 'tlsv1.3', {rsa, 2048, 65537}, false),
    run("tls 1.3 ecdsa", 'tlsv1.3', {namedCurve, secp256r1}, false),
    run("tls 1.2 rsa", 'tlsv1.2', {rsa, 2048, 65537}, false),
    run("tls 1.2 ecdsa", 'tlsv1.2', {namedCurve, secp256r1}, false),
    run("tls 1.3 client cert", 'tlsv1.3', {namedCurve, secp256r1}, true),
    run("tls 1.2 client cert", 'tlsv1.2', {rsa, 2048, 65537}, true),
    bad_root("tls 1.3 wrong root", 'tlsv1.3'),
    bad_root("tls 1.2 wrong root", 'tlsv1.2'),
    ok.
