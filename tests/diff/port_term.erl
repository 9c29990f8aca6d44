-module(port_term).
-export([main/0]).

%% A port as a term: type tests, ordering among the other types, the
%% external term format, printing's shape, port_to_list/list_to_port.
main() ->
    P = open_port({spawn, "cat"}, []),
    io:format("is_port ~p ~p ~p~n", [is_port(P), is_port(self()), guard(P)]),
    Sorted = lists:sort([self(), P, make_ref(), fun main/0, atom, 1, {t}, [l], <<"b">>, 2.0]),
    io:format("order ~p~n", [[kind(X) || X <- Sorted]]),
    io:format("compare ~p~n", [{P < self(), P > make_ref(), P > fun main/0}]),
    Q = open_port({spawn, "cat"}, []),
    io:format("two ports ~p~n", [{P =:= Q, P < Q}]),
    Bin = term_to_binary(P),
    io:format("etf ~p ~p~n", [binary_to_term(Bin) =:= P, lists:member(binary:at(Bin, 1), [89, 120])]),
    io:format("etf in a tuple ~p~n", [binary_to_term(term_to_binary({P, [Q]})) =:= {P, [Q]}]),
    Text = lists:flatten(io_lib:format("~p", [P])),
    io:format("printed ~p~n", [lists:prefix("#Port<0.", Text) andalso lists:last(Text) =:= $>]),
    io:format("port_to_list ~p~n", [port_to_list(P) =:= Text]),
    io:format("list_to_port ~p~n", [list_to_port(port_to_list(P)) =:= P]),
    io:format("phash2 stable ~p~n", [erlang:phash2(P) =:= erlang:phash2(binary_to_term(Bin))]),
    io:format("map key ~p~n", [maps:get(P, #{P => found, Q => other})]),
    port_close(P),
    port_close(Q),
    io:format("closed still a port ~p~n", [is_port(P)]).

guard(X) when is_port(X) -> guard_yes;
guard(_) -> guard_no.

kind(X) when is_integer(X) -> number;
kind(X) when is_float(X) -> number;
kind(X) when is_atom(X) -> atom;
kind(X) when is_reference(X) -> reference;
kind(X) when is_function(X) -> 'fun';
kind(X) when is_port(X) -> port;
kind(X) when is_pid(X) -> pid;
kind(X) when is_tuple(X) -> tuple;
kind(X) when is_list(X) -> list;
kind(X) when is_binary(X) -> binary.
