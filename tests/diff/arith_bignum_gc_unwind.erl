-module(arith_bignum_gc_unwind).
-export([main/0]).

%% Bignum arithmetic on the way back up a deep recursion: every return
%% builds a bignum bigger than the last, overflowing the young heap, and
%% no test_heap comes between, so beamr's arithmetic collects itself,
%% with values live in X registers (the gc_bif's live count) and on the
%% stack; its operands must survive the move.
main() ->
    F = fact(600),
    io:format("fact 600: ~p digits, rem ~p~n",
              [length(integer_to_list(F)), F rem 1000000007]),
    {P, L, T} = fact_live(400, [a, {b, "c"}], <<"bin">>),
    io:format("live: ~p ~p ~p~n", [P rem 998244353, L, T]),
    io:format("negative: ~p ~p~n", [neg_fact(301) rem 1000003, neg_fact(300) > 0]),
    io:format("sums: ~p~n", [sums(300, 1 bsl 100, 7) rem 1000000009]),
    io:format("scaled: ~p~n", [lists:sum(scale(lists:seq(-50, 200), fact(80))) rem 65537]),
    io:format("powers: ~p~n", [pow(3, 500, 1) rem 1000000007]),
    io:format("edges: ~p~n", [edges()]),
    %% 3000! in a fresh process: its young heap starts at the minimum.
    Self = self(),
    spawn(fun() -> Self ! {fact, fact(3000) rem 1000000007} end),
    receive {fact, R} -> io:format("fact 3000 in a new process: ~p~n", [R]) end.

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

%% The product comes back in a tuple with two other values, which stay in
%% X registers across the multiplication.
fact_live(0, L, T) -> {1, L, T};
fact_live(N, L, T) ->
    {P, L1, T1} = fact_live(N - 1, L, T),
    {N * P, L1, T1}.

neg_fact(0) -> 1;
neg_fact(N) -> -N * neg_fact(N - 1).

%% Bignum + and - with a live accumulator.
sums(0, A, B) -> A - B;
sums(N, A, B) ->
    S = sums(N - 1, A * 3 + N, B),
    S - N * A + B.

scale([], _) -> [];
scale([X | Xs], F) -> [X * F | scale(Xs, F)].

pow(_, 0, Acc) -> Acc;
pow(B, E, Acc) -> pow(B, E - 1, Acc * B).

%% Products at the small-integer boundary: a bignum times -1 or 0 or 1,
%% smalls whose product is a bignum.
edges() ->
    Big = 1 bsl 59,
    [Big * -1, -1 * Big, Big * 0, 1 * Big, (Big + 1) * -1, -Big * -1,
     Big * 2, -2 * Big, (1 bsl 64) * -(1 bsl 58), (1 bsl 62) * 4,
     is_integer(Big * -1) andalso Big * -1 =:= -(1 bsl 59),
     (-(1 bsl 59)) * -1 =:= Big].
