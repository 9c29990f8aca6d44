%% erlang:decode_packet/3 on HTTP: request lines (every method erts
%% knows, others as strings), URIs ('*', abs_path, absoluteURI with and
%% without ports, other schemes, anything else), HTTP/0.9 lines, status
%% lines, headers (every name erts knows, with its number; others
%% normalised; long ones as they are), continuation lines, the end of the
%% headers, incomplete lines and lines that are none of these, as lists
%% (http, httph) and binaries (http_bin, httph_bin); a whole message read
%% line by line as a server reads it.
-module(net_decode_packet_http).
-export([main/0]).

d(Type, Bin) -> d(Type, Bin, []).

d(Type, Bin, Opts) ->
    io:format("~w ~p ~w~n  -> ~p~n", [Type, Bin, Opts, erlang:decode_packet(Type, Bin, Opts)]).

dw(Type, Bin) ->
    io:format("~w ~w~n  -> ~w~n", [Type, Bin, erlang:decode_packet(Type, Bin, [])]).

methods() ->
    ["OPTIONS", "GET", "HEAD", "POST", "PUT", "DELETE", "TRACE",
     "PATCH", "CONNECT", "get", "Get", "X-CUSTOM", "M1", "options"].

headers() ->
    ["Cache-Control", "Connection", "Date", "Pragma", "Transfer-Encoding",
     "Upgrade", "Via", "Accept", "Accept-Charset", "Accept-Encoding",
     "Accept-Language", "Authorization", "From", "Host", "If-Modified-Since",
     "If-Match", "If-None-Match", "If-Range", "If-Unmodified-Since",
     "Max-Forwards", "Proxy-Authorization", "Range", "Referer", "User-Agent",
     "Age", "Location", "Proxy-Authenticate", "Public", "Retry-After",
     "Server", "Vary", "Warning", "Www-Authenticate", "Allow", "Content-Base",
     "Content-Encoding", "Content-Language", "Content-Length",
     "Content-Location", "Content-Md5", "Content-Range", "Content-Type",
     "Etag", "Expires", "Last-Modified", "Accept-Ranges", "Set-Cookie",
     "Set-Cookie2", "X-Forwarded-For", "Cookie", "Keep-Alive",
     "Proxy-Connection"].

uris() ->
    ["/", "/index.html?a=b&c=d", "*", "x", "**", "http://example.com",
     "http://example.com/", "http://example.com:8080/a/b?q",
     "HTTP://Example.COM:80", "https://h:443/p", "HttpS://h/p",
     "http://h:0/p", "http://h:/p", "http://h:12x/p", "http://h:1:2/p",
     "http://", "https://", "http:/x", "ftp://files/x", "mailto:a@b",
     "urn:x:y:z", "relative/path", "example.com", "http://[v6]/p",
     "http://user@h:81/p"].

statuses() ->
    ["HTTP/1.1 200 OK", "HTTP/1.0 404 Not Found", "HTTP/1.1 500",
     "HTTP/1.1 301   Moved  Permanently ", "HTTP/2.0 204 No Content",
     "HTTP/1.1 \t200\tTabbed", "HTTP/12.34 999 Big", "HTTP/1.1 ",
     "HTTP/1.1 OK", "HTTP/1.1", "HTTP/1 200 OK", "HTTP/.1 200 OK",
     "HTTP/1. 200 OK", "HTTP/1.1200 OK", "HTTP/1.1 200OK", "HTTP/x.y 200",
     "http/1.1 200 OK"].

requests() ->
    ["GET / HTTP/1.1", "GET / HTTP/1.0", "GET /  HTTP/1.1", "GET\t/\tHTTP/1.1",
     "GET / HTTP/1.1 ", "GET / HTTP/1.1garbage", "GET / HTTP/2.0",
     "GET / HTTP/1", "GET / HTTP/1.", "GET / HTTP/.1", "GET / FTP/1.1",
     "GET / HTTP", "GET / HTTP/1.1x", "GET /", "GET /index.html", "GET * ",
     "GET", "GET ", " GET / HTTP/1.1", "", "G(T / HTTP/1.1",
     "GET / HTTP/1.1 extra words", "garbage", "\tGET / HTTP/1.1"].

main() ->
    %% The start line, in both forms, ended by \r\n or \n.
    [d(T, iolist_to_binary([M, " /path HTTP/1.1\r\n"])) || T <- [http, http_bin], M <- methods()],
    [d(T, iolist_to_binary(["GET ", U, " HTTP/1.1\r\n"])) || T <- [http, http_bin], U <- uris()],
    [d(T, iolist_to_binary([S, "\r\n"])) || T <- [http, http_bin], S <- statuses()],
    [d(T, iolist_to_binary([R, "\r\n"])) || T <- [http, http_bin], R <- requests()],
    [d(T, iolist_to_binary([R, "\n"])) || T <- [http, http_bin], R <- ["GET / HTTP/1.1", "HTTP/1.1 200 OK", "x"]],
    d(http, <<"GET / HTTP/1.1\r\nHost: x\r\n\r\n">>),
    d(http, <<"\r\nGET / HTTP/1.1\r\n">>),
    d(http, <<"\n">>),
    d(http, <<"\r\n">>),
    d(http, <<"\r">>),
    d(http, <<>>),
    d(http, <<"GET / HTTP/1.1">>),
    d(http, <<"GET / HTTP/1.1\r">>),
    d(http_bin, <<"GET / HTTP/1.1\r\n\r\n">>),
    %% Headers: every known name, in its own case, lower and upper case.
    [d(T, iolist_to_binary([H, ": v\r\n\r\n"])) || T <- [httph, httph_bin], H <- headers()],
    [d(httph, iolist_to_binary([string:lowercase(H), ":v\r\n\r\n"])) || H <- headers()],
    [d(httph_bin, iolist_to_binary([string:uppercase(H), ":  v  \r\nX"])) || H <- headers()],
    %% Other names, normalised.
    [d(T, iolist_to_binary([H, ": value\r\n\r\n"])) || T <- [httph, httph_bin],
        H <- ["x-custom", "X-CUSTOM-HEADER", "x--double", "-leading", "a",
              "content_type", "Content-Lengthx", "contentlength", "X-Forwarded-Proto",
              "dnt", "X-1-2-3", "set-cookie3", "a.b", "a~b|c!d#e$f%g&h'i*j+k^l`m",
              "Sec-WebSocket-Key"]],
    %% Bytes past ASCII are not in names (printed with ~w: erl 25 and 27
    %% print them differently with ~p).
    [dw(T, <<"x-", B, ": value\r\n\r\n">>) || T <- [httph, httph_bin], B <- [128, 200, 255]],
    [dw(T, <<"GET /", B, " HTTP/1.1\r\n">>) || T <- [http, http_bin], B <- [128, 255]],
    [dw(T, <<B, "ET / HTTP/1.1\r\n">>) || T <- [http, http_bin], B <- [128, 255]],
    %% Names of 50 bytes are normalised, longer ones kept as they are.
    [d(T, iolist_to_binary([lists:duplicate(N, $a), "-B: v\r\n\r\n"])) || T <- [httph, httph_bin], N <- [47, 48, 49, 50]],
    d(httph, iolist_to_binary(["content-length", lists:duplicate(40, $X), ": 1\r\n\r\n"])),
    %% Values: blanks after the colon skipped, the rest kept.
    [d(T, B) || T <- [httph, httph_bin],
        B <- [<<"Host:\r\n\r\n">>, <<"Host:    \r\n\r\n">>, <<"Host:\t\t x y \t\r\n\r\n">>,
              <<"Host: a: b: c\r\n\r\n">>, <<"Host: x\n\n">>, <<":v\r\n\r\n">>,
              <<": v\r\n\r\n">>]],
    %% Continuation lines: part of the value, with their line ends.
    [d(T, B) || T <- [httph, httph_bin],
        B <- [<<"X-Long: one\r\n two\r\n\tthree\r\n\r\n">>,
              <<"X-Long: one\r\n two\r\n">>,
              <<"X-Long: one\r\n two\r\nNext: x\r\n\r\n">>,
              <<"X-Long: one\n two\n\n">>,
              <<"X-Long:\r\n \r\n\r\n">>]],
    %% Not headers.
    [d(T, B) || T <- [httph, httph_bin],
        B <- [<<"Host x\r\n\r\n">>, <<"Host : x\r\n\r\n">>, <<"Host\r\n\r\n">>,
              <<"Ho st: x\r\n\r\n">>, <<"(Host): x\r\n\r\n">>, <<"GET / HTTP/1.1\r\n\r\n">>,
              <<" Host: x\r\n\r\n">>, <<"Host/1: x\r\n\r\n">>, <<"\tx\r\n\r\n">>]],
    %% The end of the headers, and what is not there yet.
    [d(T, B) || T <- [httph, httph_bin],
        B <- [<<"\r\n">>, <<"\n">>, <<"\r\nbody">>, <<"\r\n \r\n">>, <<>>,
              <<"Host: x">>, <<"Host: x\r\n">>, <<"Host: x\r">>, <<"Host: x\r\n ">>,
              <<"Host: x\r\n y">>, <<"Host: x\r\n y\r\n">>]],
    %% A whole message, read as a server reads it.
    read(http_bin, <<"POST /submit?x=1 HTTP/1.1\r\nHost: example.com\r\n"
                     "content-type: text/plain\r\nContent-Length: 5\r\n"
                     "X-Trace: a\r\n b\r\nCookie: k=v\r\n\r\nhello">>),
    read(http, <<"HTTP/1.1 200 OK\r\nServer: beamr\r\nConnection: close\r\n"
                 "transfer-encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n">>),
    read(http_bin, <<"GET / HTTP/1.1\r\nHost: a\r\n">>),
    %% The limits on a line's length (packet_size, or else line_length).
    Line = <<"GET /abcdefghij HTTP/1.1\r\nHost: x\r\n\r\n">>,
    [d(http_bin, Line, Opts) || Opts <- [[{packet_size, 25}], [{packet_size, 26}],
        [{packet_size, 27}], [{line_length, 25}], [{line_length, 26}],
        [{packet_size, 0}, {line_length, 10}], [{packet_size, 30}, {line_length, 10}],
        [{packet_size, 10}, {line_length, 30}]]],
    [d(http, <<"GET /abcdefghij">>, Opts) || Opts <- [[{packet_size, 15}], [{packet_size, 16}], [{line_length, 15}]]],
    [d(httph, <<"Host: abc\r\n def\r\n\r\n">>, Opts) || Opts <- [[{packet_size, 11}], [{packet_size, 16}], [{packet_size, 17}]]],
    ok.

%% Reads Bin as a server does: the start line as Type, the headers as
%% its header type, until the end of the headers; then prints the rest.
read(Type, Bin) ->
    io:format("reading ~w~n", [Type]),
    read(Type, header_type(Type), Bin).

read(Type, HType, Bin) ->
    case erlang:decode_packet(Type, Bin, []) of
        {ok, http_eoh, Rest} ->
            io:format("  eoh, body ~p~n", [Rest]);
        {ok, Packet, Rest} ->
            io:format("  ~p~n", [Packet]),
            read(HType, HType, Rest);
        Other ->
            io:format("  stopped: ~p~n", [Other])
    end.

header_type(http) -> httph;
header_type(http_bin) -> httph_bin.
