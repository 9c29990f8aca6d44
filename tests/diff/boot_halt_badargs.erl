%% erlang:halt/1,2 with bad arguments raise badarg (halt/2's options with
%% cause badopt) and leave the system running; halt/0 then ends it with
%% status 0 after the output is written.
-module(boot_halt_badargs).
-export([main/0]).

try_halt(Args) ->
    try apply(erlang, halt, Args) of
        Value -> {returned, Value}
    catch
        error:Reason:Stack ->
            [{erlang, halt, CalledWith, Info} | _] = Stack,
            {Reason, CalledWith =:= Args, Info}
    end.

main() ->
    Cases = [[foo], [-1], [1.0], [<<"slogan">>], [{1}],
             [1, [bogus]], [1, [{flush, perhaps}]], [1, foo], [1, [{flush, true} | x]],
             [1, [{flush, true, x}]], [1, [{flush}]], [0, [{flush, false}, x]],
             [abort, [{flush, false}, {flush, true}, x]], [1, [{flush_timeout, bad}]],
             [1, [{flush_timeout, -1}]]],
    [io:format("~p: ~p~n", [Args, try_halt(Args)]) || Args <- Cases],
    io:format("still running~n"),
    halt().
