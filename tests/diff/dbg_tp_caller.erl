%% dbg:tp with the patterns dbg lints through erlang:match_spec_test/3
%% before it sets them: the c and cx shortcuts ({message, {caller}}), a
%% dbg:fun2ms specification with a guard over the arguments, and a
%% specification that does not compile (dbg's answer, and no pattern set);
%% the calls as dbg's default handler prints them.
-module(dbg_tp_caller).
-export([main/0, loop/0, double/1, half/1, fail/1, pick/2]).

-include_lib("stdlib/include/ms_transform.hrl").

loop() ->
    receive
        {call, F, A, From} -> From ! {result, catch apply(?MODULE, F, A)}, loop();
        stop -> ok
    end.

double(N) -> N * 2.
half(N) -> N div 2.
fail(N) -> error({failed, N}).
pick(K, N) -> {K, N}.

call(P, F, A) ->
    P ! {call, F, A, self()},
    receive {result, R} -> R end.

main() ->
    Dev = dbg_capture:device(),
    {ok, _} = dbg:tracer(process, dbg_capture:handler(Dev)),
    P = dbg_capture:spawn_wide(?MODULE, loop, []),
    {ok, _} = dbg:p(P, c),
    io:format("~p~n", [dbg:tp(?MODULE, double, 1, c)]),
    io:format("~p~n", [dbg:tp(?MODULE, half, 1, cx)]),
    io:format("~p~n", [dbg:tp(?MODULE, fail, 1, cx)]),
    Ms = dbg:fun2ms(fun([K, N]) when is_atom(K), N > 1 -> return_trace(), message({K, caller()}) end),
    io:format("~p~n", [Ms]),
    io:format("~p~n", [dbg:tp(?MODULE, pick, 2, Ms)]),
    io:format("~p~n", [dbg:tp(?MODULE, pick, 2, [{'_', [], [{message, '$1'}]}])]),
    4 = call(P, double, [2]),
    2 = call(P, half, [4]),
    {'EXIT', {{failed, 1}, _}} = call(P, fail, [1]),
    {a, 2} = call(P, pick, [a, 2]),
    {a, 1} = call(P, pick, [a, 1]),
    {"b", 3} = call(P, pick, ["b", 3]),
    dbg_capture:sync(),
    dbg_capture:print(Dev),
    P ! stop,
    dbg:stop_clear(),
    io:format("done~n").
