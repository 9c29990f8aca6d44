-module(function_exported_arity).
-export([main/0]).

%% erlang:function_exported/3 takes any small integer as an arity, as erts
%% does: one no function has is false (negative, above 255), and erts cuts
%% it to a C int first, so 2^32 + 1 asks for arity 1. A bignum or a
%% non-atom is badarg. (Found by difffuzz, fz42462 on OTP 27.)

p(X) -> io:format("~p~n", [X]).

main() ->
    Arities = [0, 1, 2, 255, 256, -1, 2147483647, -2147483648,
               16#100000001, 16#100000002, 16#7FFFFFFFFFFFFFF],
    p([{A, erlang:function_exported(lists, reverse, A)} || A <- Arities]),
    p([{A, erlang:function_exported(ok, ok, A)} || A <- Arities]),
    p([{A, erlang:function_exported(erlang, element, A)} || A <- Arities]),
    p([catch erlang:function_exported(lists, reverse, X)
       || X <- [1 bsl 64, -(1 bsl 64), 1.0, a]]),
    p([catch erlang:function_exported(M, F, 1) || {M, F} <- [{"lists", reverse}, {lists, "reverse"}]]).
