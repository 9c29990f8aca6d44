-module(proc_eval_receive).
-export([main/0]).

%% A receive evaluated by erl_eval (as `erl -eval`, the shell and `beamr
%% ctl eval` evaluate one) runs through OTP's prim_eval, which calls
%% erlang:bump_reductions/1; and that BIF's argument checks.
main() ->
    self() ! hello,
    {ok, Tokens, _} = erl_scan:string("receive M -> {got, M} after 1000 -> timeout end."),
    {ok, Exprs} = erl_parse:parse_exprs(Tokens),
    {value, V, _} = erl_eval:exprs(Exprs, []),
    io:format("~p~n", [V]),
    {ok, T2, _} = erl_scan:string("receive M -> M after 10 -> nothing end."),
    {ok, E2} = erl_parse:parse_exprs(T2),
    io:format("~p~n", [element(2, erl_eval:exprs(E2, []))]),
    [io:format("~p~n", [try erlang:bump_reductions(X) catch C:R -> {C, R} end])
     || X <- [0, 1, 1000000000, -1, a, 1 bsl 70]],
    ok.
