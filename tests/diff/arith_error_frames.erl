-module(arith_error_frames).
-export([main/0, add/2, plus_one/1, one_plus/1, minus_one/1, minus_neg/1,
         plus_neg/1, plus_big/1, minus_big/1, plus_huge/1, times_two/1,
         minus_reg/2, rem_three/1, in_frame/1]).

%% The stack trace of a failing arithmetic operator. erts puts the
%% operator's own frame ({erlang, '+', Args, [error_info]}) on top, then
%% the function that applied it; except that OTP 25 runs `Reg + Int` and
%% `Reg - NonNegInt` of a small integer as an increment, whose badarith
%% shows no operator frame (OTP 26 and later show it for these too).
add(A, B) -> A + B.
plus_one(A) -> A + 1.
one_plus(A) -> 1 + A.
minus_one(A) -> A - 1.
minus_neg(A) -> A - (-3).
plus_neg(A) -> A + (-3).
plus_big(A) -> A + (1 bsl 40).
minus_big(A) -> A - ((1 bsl 59) - 1).
plus_huge(A) -> A + (1 bsl 60).
times_two(A) -> A * 2.
minus_reg(A, B) -> A - B.
rem_three(A) -> A rem 3.
%% The increment on a Y register, with a frame of its own.
in_frame(A) -> X = id(A), Y = X + 7, [Y | id(X)].

id(X) -> X.

top(F, Args) ->
    try apply(?MODULE, F, Args) of
        V -> {F, value, V}
    catch
        error:Reason:Stack ->
            [{M, Fun, As, _} | _] = Stack,
            {F, Reason, M, Fun, As}
    end.

frames(F) ->
    try F() of
        V -> {value, V}
    catch
        error:Reason:Stack ->
            {Reason, [Frame || {M, _, _, _} = Frame <- Stack, M =/= init]}
    end.

main() ->
    Bin = list_to_binary("x"),
    [io:format("~p~n", [top(F, Args)])
     || {F, Args} <- [{add, [Bin, 1]}, {add, [1, foo]}, {plus_one, [Bin]},
                      {one_plus, [Bin]}, {minus_one, [Bin]}, {minus_neg, [Bin]},
                      {plus_neg, [Bin]}, {plus_big, [Bin]}, {minus_big, [Bin]},
                      {plus_huge, [Bin]}, {times_two, [Bin]}, {minus_reg, [Bin, 1]},
                      {rem_three, [Bin]}, {in_frame, [Bin]}, {plus_one, [41]},
                      {plus_one, [(1 bsl 59) - 1]}, {minus_one, [-(1 bsl 59)]}]],
    %% With a literal operand the compiler knows fails, no increment.
    io:format("~p~n", [frames(fun() -> Bin + 1 end)]),
    io:format("~p~n", [frames(fun() -> plus_one(a) end)]),
    io:format("~p~n", [frames(fun() -> add(a, 1) end)]).
