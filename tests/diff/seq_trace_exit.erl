%% The seq_trace token and exit signals: a linked process that dies with a
%% token passes it on with its exit signal (a send event of
%% {'EXIT', Pid, Reason}); the trapping receiver's token is set from the
%% 'EXIT' message. exit/2 passes no token.
-module(seq_trace_exit).
-export([main/0]).

main() ->
    Me = self(),
    process_flag(trap_exit, true),
    Tracer = spawn(fun() -> collect([]) end),
    seq_trace:set_system_tracer(Tracer),
    %% exit/2 from a process with a token.
    C = spawn(fun() ->
                      process_flag(trap_exit, true),
                      Me ! ready,
                      receive M -> Me ! {c_got, M, seq_trace:get_token()} end
              end),
    receive ready -> ok end,
    seq_trace:set_token(label, 4),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    exit(C, boom),
    CGot = receive {c_got, CM, CT} -> {CM, CT} end,
    AfterC = seq_trace:get_token(),
    seq_trace:set_token([]),
    %% A linked process dies with a token whose flags are send and receive.
    L = spawn_link(fun() ->
                           receive {die, R} ->
                                   seq_trace:set_token(label, 5),
                                   seq_trace:set_token(send, true),
                                   seq_trace:set_token('receive', true),
                                   exit(R)
                           end
                   end),
    L ! {die, bye},
    LGot = receive {'EXIT', L, Why} -> {Why, seq_trace:get_token()} end,
    seq_trace:set_token([]),
    %% One with a token but no flags: the token travels, nothing is traced.
    Q = spawn_link(fun() -> receive die -> seq_trace:set_token(label, 6), exit(quiet) end end),
    Q ! die,
    QGot = receive {'EXIT', Q, QWhy} -> {QWhy, seq_trace:get_token()} end,
    seq_trace:set_token([]),
    timer:sleep(100),
    Tracer ! {dump, Me},
    Events = receive {events, E} -> E end,
    Names = #{Me => me, C => c, L => l, Q => q, Tracer => tracer},
    io:format("~p~n", [trace_names:name([CGot, AfterC, LGot, QGot], Names)]),
    [io:format("~p~n", [trace_names:name(Ev, Names)]) || Ev <- Events],
    seq_trace:set_system_tracer(false).

collect(Acc) ->
    receive
        {dump, To} -> To ! {events, lists:reverse(Acc)};
        Event -> collect([Event | Acc])
    end.
