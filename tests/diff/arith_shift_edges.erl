-module(arith_shift_edges).
-export([main/0]).

%% bsl/bsr/bnot on small integers near the small/bignum border and with
%% shift counts at and past the word size, both signs.
main() ->
    Xs = [0, 1, -1, 5, -5, 16#7ffffff, -16#8000000, (1 bsl 59) - 1, -(1 bsl 59),
          (1 bsl 60), -(1 bsl 60) - 1, 1 bsl 100, -(1 bsl 100)],
    Ns = [0, 1, 3, 24, 58, 59, 60, 61, 62, 63, 64, 65, 127, 128, 1000],
    lists:foreach(
      fun(X) ->
              lists:foreach(
                fun(N) ->
                        io:format("~w bsl ~w = ~w~n", [X, N, X bsl N]),
                        io:format("~w bsr ~w = ~w~n", [X, N, X bsr N]),
                        io:format("~w bsl -~w = ~w~n", [X, N, X bsl -N]),
                        io:format("~w bsr -~w = ~w~n", [X, N, X bsr -N])
                end, Ns),
              io:format("bnot ~w = ~w~n", [X, bnot X])
      end, Xs),
    %% rand's xorshift mixing: masks and shifts that stay small.
    M = (1 bsl 58) - 1,
    S = lists:foldl(fun(_, A) -> ((A bsl 7) band M) bxor (A bsr 11) bxor 16#5bd1e995 end,
                    16#123456789, lists:seq(1, 1000)),
    io:format("mix ~w~n", [S]),
    io:format("~p~n", [catch (1 bsl (1 bsl 40))]),
    io:format("~p~n", [catch (1 bsl a)]),
    io:format("~p~n", [catch (1.0 bsr 1)]),
    io:format("~p~n", [catch bnot 1.5]).
