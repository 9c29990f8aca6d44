%% Shared by diff programs (not a program): a connected pair of passive
%% loopback sockets, and the messages a socket sends its owner.
-module(tcp_pair).
-export([open/2, msgs/1, norm/2]).

%% {Client, Server}: a server socket listening with SOpts (the listener
%% closed once it accepted) and a client connected to it with COpts.
open(SOpts, COpts) ->
    {ok, L} = gen_tcp:listen(0, [{ip, {127,0,0,1}}, {active, false} | SOpts]),
    {ok, Port} = inet:port(L),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [{active, false} | COpts]),
    {ok, S} = gen_tcp:accept(L),
    ok = gen_tcp:close(L),
    {C, S}.

%% The messages about socket S until 300 ms of quiet, S shown as 'S'.
msgs(S) ->
    receive M when element(2, M) =:= S -> [norm(S, M) | msgs(S)]
    after 300 -> []
    end.

%% T with socket S shown as 'S' (in tuples, at any depth).
norm(S, S) -> 'S';
norm(S, T) when is_tuple(T) -> list_to_tuple([norm(S, E) || E <- tuple_to_list(T)]);
norm(_, T) -> T.
