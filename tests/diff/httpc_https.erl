%% OTP's httpc fetching https URLs from a TLS server on loopback: a GET
%% and a POST whose server certificate is checked against the test root,
%% headers and body as the server sent them, and a server whose
%% certificate comes from another root (httpc's error, with the alert).
-module(httpc_https).
-export([main/0]).

chains() ->
    Opts = [{key, {namedCurve, secp256r1}}, {digest, sha256}],
    public_key:pkix_test_data(#{server_chain => #{root => Opts, intermediates => [], peer => Opts},
                                client_chain => #{root => Opts, intermediates => [], peer => Opts}}).

%% Serves N requests, one per connection: the answer names the method,
%% the path and the body's size.
serve(_LSock, 0) -> ok;
serve(LSock, N) ->
    {ok, T} = ssl:transport_accept(LSock, 20000),
    case ssl:handshake(T, 10000) of
        {ok, S} ->
            ok = ssl:setopts(S, [{packet, http_bin}]),
            {ok, {http_request, Method, {abs_path, Path}, _}} = ssl:recv(S, 0, 10000),
            Length = headers(S, 0),
            ok = ssl:setopts(S, [{packet, raw}]),
            Body = case Length of
                       0 -> <<>>;
                       _ -> {ok, B} = ssl:recv(S, Length, 10000), B
                   end,
            Reply = iolist_to_binary(io_lib:format("~s ~s ~p", [Method, Path, byte_size(Body)])),
            ok = ssl:send(S, ["HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nx-served-by: test\r\n",
                              "content-length: ", integer_to_list(byte_size(Reply)), "\r\n",
                              "connection: close\r\n\r\n", Reply]),
            ssl:close(S);
        {error, _} -> ok
    end,
    serve(LSock, N - 1).

headers(S, Length) ->
    case ssl:recv(S, 0, 10000) of
        {ok, {http_header, _, 'Content-Length', _, V}} -> headers(S, binary_to_integer(V));
        {ok, {http_header, _, _, _, _}} -> headers(S, Length);
        {ok, http_eoh} -> Length
    end.

server(SC, Conns) ->
    {ok, LSock} = ssl:listen(0, [{reuseaddr, true}, binary, {active, false} | SC]),
    {ok, {_, Port}} = ssl:sockname(LSock),
    spawn_link(fun() -> serve(LSock, Conns) end),
    {LSock, Port}.

result({ok, {{_Version, Status, Reason}, Headers, Body}}) ->
    Kept = lists:sort([H || {K, _} = H <- Headers, lists:member(K, ["content-type", "x-served-by", "content-length"])]),
    {ok, Status, Reason, Kept, Body};
result({error, {failed_connect, [_, {inet, _, {tls_alert, {Alert, _}}}]}}) ->
    {error, failed_connect, Alert};
result({error, {failed_connect, [_, {inet, _, E}]}}) ->
    {error, failed_connect, E};
result(Other) -> Other.

main() ->
    logger:set_primary_config(level, none),
    {ok, _} = application:ensure_all_started(ssl),
    {ok, _} = application:ensure_all_started(inets),
    #{server_config := SC, client_config := CC} = chains(),
    {LSock, Port} = server(SC, 2),
    Roots = proplists:get_value(cacerts, CC),
    Url = "https://127.0.0.1:" ++ integer_to_list(Port),
    Ssl = [{ssl, [{verify, verify_peer}, {cacerts, Roots}, {server_name_indication, disable}]},
           {timeout, 10000}, {connect_timeout, 10000}],
    io:format("get: ~p~n", [result(httpc:request(get, {Url ++ "/hello?x=1", []}, Ssl, [{body_format, binary}]))]),
    io:format("post: ~p~n", [result(httpc:request(post, {Url ++ "/data", [], "application/octet-stream", binary:copy(<<"z">>, 50000)},
                                                   Ssl, [{body_format, binary}]))]),
    ssl:close(LSock),
    %% A server whose chain comes from another root.
    #{server_config := OtherSC} = chains(),
    {Other, OtherPort} = server(OtherSC, 1),
    OtherUrl = "https://127.0.0.1:" ++ integer_to_list(OtherPort) ++ "/",
    io:format("wrong root: ~p~n", [result(httpc:request(get, {OtherUrl, []}, Ssl, []))]),
    ssl:close(Other),
    ok.
