%% erlang:trace/3 on a port asked port_control/3 and port_call/2,3: the
%% port is scheduled in and out for each (running_ports, `control` or
%% `call`), receives {Pid, {control, {Op, DataBinary}}} ('receive') and
%% sends the answer as {Port, {control, ReplyBinary}} to the caller
%% (send), even when the caller gets a list; a refused request (a program's
%% port has no control callback, no driver has a call callback) shows no
%% send; a bad argument shows nothing. The calling process's own trace
%% shows nothing of it. The inet driver is the one both runtimes have.
-module(trace_port_control).
-export([main/0]).

-define(MAGIC, 16#03f1a300).
-define(GETTYPE, (?MAGIC + 15)).
-define(GETSTATUS, (?MAGIC + 16)).

main() ->
    Self = self(),
    All = ['receive', send, ports, running_ports],
    [begin
         {ok, S} = gen_tcp:listen(0, [{ip, {127, 0, 0, 1}} | Mode]),
         1 = erlang:trace(S, true, [{tracer, Self} | Flags]),
         1 = erlang:trace(Self, true, [{tracer, Self}, send, 'receive', procs, ports]),
         Answers = [erlang:port_control(S, ?GETTYPE, []),
                    erlang:port_control(S, ?GETSTATUS, <<>>),
                    erlang:port_control(S, 9999, [1, 2, <<3>>]),
                    catch_error(fun() -> erlang:port_call(S, 1, [x]) end),
                    catch_error(fun() -> erlang:port_call(S, {any, term}) end)],
         1 = erlang:trace(Self, false, [all]),
         io:format("~p ~p: ~p~n", [Mode, Flags, Answers]),
         show(),
         1 = erlang:trace(S, false, [all]),
         ok = gen_tcp:close(S)
     end || Mode <- [[binary], [list]],
            Flags <- [All, [running_ports], ['receive'], [send]]],
    %% Bad arguments: badarg before the port sees anything.
    {ok, S} = gen_tcp:listen(0, [{ip, {127, 0, 0, 1}}]),
    1 = erlang:trace(S, true, [{tracer, Self} | All]),
    Bad = [catch_error(F) || F <- [fun() -> erlang:port_control(S, foo, []) end,
                                   fun() -> erlang:port_control(S, -1, []) end,
                                   fun() -> erlang:port_control(S, 1 bsl 32, []) end,
                                   fun() -> erlang:port_control(S, 1, [foo]) end,
                                   fun() -> erlang:port_call(S, foo, []) end,
                                   fun() -> erlang:port_call(S, -1, []) end]],
    io:format("bad: ~p~n", [Bad]),
    show(),
    1 = erlang:trace(S, false, [all]),
    ok = gen_tcp:close(S),
    %% A closed port: badarg, nothing traced.
    Closed = [catch_error(fun() -> erlang:port_control(S, ?GETTYPE, []) end),
              catch_error(fun() -> erlang:port_call(S, 1, []) end)],
    io:format("closed: ~p~n", [Closed]),
    show(),
    %% A program's port has no control callback: the request is received
    %% and refused.
    P = open_port({spawn, "cat"}, [binary]),
    1 = erlang:trace(P, true, [{tracer, Self} | All]),
    Program = [catch_error(fun() -> erlang:port_control(P, 1, "ab") end),
               catch_error(fun() -> erlang:port_call(P, 1, []) end)],
    io:format("program: ~p~n", [Program]),
    show(),
    1 = erlang:trace(P, false, [all]),
    port_close(P),
    ok.

catch_error(F) ->
    try F() catch error:E -> {error, E} end.

show() ->
    [io:format("  ~p~n", [E]) || E <- trace_names:ordered(trace_names:collect())],
    ok.
