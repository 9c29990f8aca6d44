-module(fun_closures).
-export([main/0, add/2]).

%% Closures, captured variables, named funs, and fun identity.
main() ->
    N = 10,
    AddN = fun(X) -> X + N end,
    Adders = [fun(X) -> X + I end || I <- [1, 2, 3]],
    p([AddN(5), [F(100) || F <- Adders]]),
    Counter = make_counter(0),
    p(Counter(Counter(Counter(0)))),
    Fact = fun F(0) -> 1; F(K) -> K * F(K - 1) end,
    p(Fact(25)),
    Compose = fun(F, G) -> fun(X) -> F(G(X)) end end,
    p((Compose(fun(X) -> X * 2 end, fun(X) -> X + 3 end))(4)),
    Ext = fun ?MODULE:add/2, Loc = fun add/2,
    p([Ext(1, 2), Loc(3, 4), (fun erlang:'+'/2)(5, 6), (fun lists:reverse/1)([1, 2])]),
    p([is_function(AddN), is_function(AddN, 1), is_function(AddN, 2), is_function(Ext, 2)]),
    p([erlang:fun_info(AddN, arity), erlang:fun_info(Ext, module), erlang:fun_info(Ext, name),
       erlang:fun_info(Ext, type), erlang:fun_info(AddN, type), erlang:fun_info(AddN, env)]),
    p([Ext =:= fun ?MODULE:add/2, AddN == AddN, fun erlang:abs/1 == fun erlang:abs/1]),
    Curry = fun(A) -> fun(B) -> fun(C) -> A + B * C end end end,
    p(((Curry(1))(2))(3)),
    p(lists:foldl(fun(F, Acc) -> F(Acc) end, 1, [fun(X) -> X * 3 end, fun(X) -> X - 1 end])),
    io:format("~w~n", [fun ?MODULE:add/2]),
    io:format("~p~n", [fun lists:map/2]),
    ok.

make_counter(Step) -> fun(X) -> X + Step + 1 end.

add(A, B) -> A + B.

p(X) -> io:format("~p~n", [X]).
