%% erlang:send_after, start_timer, cancel_timer, read_timer.
-module(proc_timers).
-export([main/0]).

main() ->
    T1 = erlang:send_after(20, self(), tick),
    io:format("ref: ~p~n", [is_reference(T1)]),
    receive tick -> io:format("tick~n") end,
    T2 = erlang:start_timer(10, self(), tock),
    receive {timeout, T2, tock} -> io:format("tock with ref~n") end,
    %% Order of timers by time, not by start order: a second apart, so
    %% that a loaded machine's pause between two starts cannot reorder them.
    erlang:send_after(2000, self(), third),
    erlang:send_after(1, self(), first),
    erlang:send_after(1000, self(), second),
    io:format("order: ~p~n", [[receive M -> M end || _ <- [1, 2, 3]]]),
    %% cancel_timer returns the time left, then false.
    T3 = erlang:send_after(10000, self(), never),
    Left = erlang:cancel_timer(T3),
    io:format("left: ~p~n", [is_integer(Left) andalso Left > 5000 andalso Left =< 10000]),
    io:format("cancel again: ~p~n", [erlang:cancel_timer(T3)]),
    io:format("read cancelled: ~p~n", [erlang:read_timer(T3)]),
    receive never -> io:format("unexpected~n") after 30 -> io:format("cancelled~n") end,
    %% read_timer of a live timer.
    T4 = erlang:start_timer(10000, self(), x),
    R = erlang:read_timer(T4),
    io:format("read: ~p~n", [R > 5000]),
    io:format("cancel async: ~p~n", [erlang:cancel_timer(T4, [{async, false}, {info, false}])]),
    %% Asynchronous cancel: the result comes as a message.
    T6 = erlang:send_after(10000, self(), never),
    io:format("async cancel: ~p~n", [erlang:cancel_timer(T6, [{async, true}])]),
    receive {cancel_timer, T6, Left6} -> io:format("async result: ~p~n", [is_integer(Left6)]) end,
    io:format("async again: ~p~n", [erlang:cancel_timer(T6, [{async, true}, {info, true}])]),
    receive {cancel_timer, T6, R6} -> io:format("async result: ~p~n", [R6]) end,
    io:format("no info: ~p~n", [erlang:cancel_timer(T6, [{info, false}])]),
    io:format("bad option: ~p~n", [err(fun() -> erlang:cancel_timer(T6, [{bogus, true}]) end)]),
    io:format("send/3: ~p ~p~n", [erlang:send(self(), m, [noconnect, nosuspend]), receive m -> got end]),
    io:format("send/3 bad: ~p~n", [err(fun() -> erlang:send(self(), m, [bogus]) end)]),
    %% cancel_timer of a fired timer: false.
    T5 = erlang:send_after(1, self(), fired),
    receive fired -> ok end,
    io:format("cancel fired: ~p~n", [erlang:cancel_timer(T5)]),
    %% Timer to a registered name.
    register(me, self()),
    erlang:send_after(5, me, by_name),
    receive by_name -> io:format("by name~n") end,
    %% Timer to a dead process: nothing happens.
    P = spawn(fun() -> ok end),
    erlang:send_after(5, P, lost),
    timer:sleep(20),
    %% timer module functions.
    {ok, TRef} = timer:send_after(10, self(), via_timer),
    receive via_timer -> io:format("timer:send_after ~p~n", [element(1, TRef)]) end,
    timer:sleep(5),
    io:format("badarg: ~p~n", [err(fun() -> erlang:send_after(-1, self(), x) end)]),
    io:format("badarg: ~p~n", [err(fun() -> erlang:send_after(10, 42, x) end)]),
    io:format("badarg: ~p~n", [err(fun() -> erlang:cancel_timer(foo) end)]),
    io:format("done~n").

%% The class and reason of an exception, or the value (no stack traces).
err(F) ->
    try F() catch C:R -> {C, R} end.
