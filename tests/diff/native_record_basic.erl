%% diff-requires-otp: 29
-module(native_record_basic).
%% OTP 29 native records: creation with defaults, field access, update,
%% matching in heads and guards, is_record, printing.
-export([main/0]).

-record #point{x = 0, y = 0}.
-record #named{name, tags = [], extra = {a, "b"}}.
-record #empty{}.

mk(X) -> #point{x = X}.
upd(P, Y) -> P#point{y = Y}.
gx(P) -> P#point.x.
any_y(P) -> P#_.y.
anyupd(P) -> P#_{y = 100}.

m(#point{x = X, y = Y}) -> {point, X, Y};
m(#named{name = N}) -> {named, N};
m(#empty{}) -> empty;
m(_) -> other.

g(P) when P#point.x > 1 -> big;
g(_) -> small.

kind(T) when is_record(T) -> record;
kind(T) when is_tuple(T) -> tuple;
kind(_) -> other.

main() ->
    P = mk(3),
    N = #named{name = <<"n">>},
    E = #empty{},
    io:format("~p~n~w~n", [P, P]),
    io:format("~p ~p ~p ~p~n", [upd(P, 5), gx(P), any_y(P), anyupd(P)]),
    io:format("~p~n", [[m(P), m(N), m(E), m(foo), m({point, 1, 2})]]),
    io:format("~p ~p~n", [g(P), g(mk(0))]),
    io:format("~p~n", [[is_record(P), is_record(P, point), is_record({point}, point),
                        is_record(N, named), is_record(P, named), is_record(E)]]),
    io:format("~p~n", [[kind(P), kind({point, 1, 2}), kind(E), kind(3)]]),
    io:format("~p~n~w~n~p~n", [N, N, E]),
    io:format("~P~n~W~n", [{P, [N, N, N]}, 5, {P, [N, N, N]}, 4]),
    io:format("~s~n", [io_lib:format("~tp", [#named{name = 'ünï', tags = [1, 2]}])]),
    Big = #named{name = lists:seq(1, 30), tags = [lists:duplicate(10, x), P, P]},
    io:format("~p~n", [Big]),
    io:format("~p~n", [[is_tuple(P), is_map(P), is_list(P), is_atom(P)]]),
    ok.
