-module(statistics_gc).
-export([main/0]).
%% erlang:statistics(garbage_collection): collections and words reclaimed
%% grow as processes collect; the third element is 0.
main() ->
    {N0, W0, Z0} = erlang:statistics(garbage_collection),
    churn(20),
    true = erlang:garbage_collect(),
    {N1, W1, Z1} = erlang:statistics(garbage_collection),
    io:format("shape ~p~n", [[is_integer(X) andalso X >= 0 || X <- [N0, W0, N1, W1]]]),
    io:format("zeros ~p~n", [{Z0, Z1}]),
    io:format("more collections ~p~n", [N1 > N0]),
    io:format("more reclaimed ~p~n", [W1 > W0]),
    io:format("bad ~p~n", [catch erlang:statistics(garbage_collections)]).

%% Garbage enough to make this process collect a few times.
churn(0) -> ok;
churn(N) ->
    _ = lists:seq(1, 20000),
    true = erlang:garbage_collect(),
    churn(N - 1).
