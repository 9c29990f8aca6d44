-module(tcp_shutdown).
-export([main/0]).

%% gen_tcp:shutdown/2 and exit_on_close: a half-closed connection, data
%% sent before the shutdown still arriving, and what the socket answers
%% after the peer's end of file.

p(X) -> io:format("~p~n", [X]).

main() ->
    {C, S} = tcp_pair:open([binary, {exit_on_close, false}], [binary]),
    ok = gen_tcp:send(C, <<"before">>),
    p(gen_tcp:shutdown(C, write)),
    p(gen_tcp:recv(S, 0)),
    p(gen_tcp:recv(S, 0)),
    p(gen_tcp:send(S, <<"reply">>)),
    p(gen_tcp:recv(C, 0)),
    p(gen_tcp:send(C, <<"more">>)),
    p(gen_tcp:close(S)),
    p(gen_tcp:recv(C, 0)),
    p(gen_tcp:close(C)),
    {C2, S2} = tcp_pair:open([binary], [binary]),
    p(inet:getopts(S2, [exit_on_close])),
    p(gen_tcp:shutdown(C2, write)),
    p(gen_tcp:recv(S2, 0)),
    p(gen_tcp:send(S2, <<"late">>)),
    p(gen_tcp:recv(S2, 0)),
    p(gen_tcp:shutdown(S2, read_write)),
    p(gen_tcp:recv(C2, 0)).
