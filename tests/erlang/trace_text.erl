%% Traced by `beamr run --trace-to text` and, for comparison, by OTP's
%% dbg with its default handler on erl (dbg_main/0): the two must print the
%% same lines per process (beamr-cli/tests/trace_text.rs).
-module(trace_text).
-export([main/0, dbg_main/0, f/1, g/1, echo/0]).

f(X) -> {X, lists:seq(1, 30)}.

g(X) -> X + 1.

echo() ->
    receive
        {From, M} -> From ! {echo, M}, echo();
        stop -> ok
    end.

main() ->
    E = spawn_link(?MODULE, echo, []),
    register(echo_srv, E),
    echo_srv ! {self(), hello},
    receive {echo, _} -> ok end,
    E ! {self(), [a_long_list, with, many, atoms, to, see, how, the, pretty,
                  printer, breaks, lines, here]},
    receive {echo, _} -> ok end,
    _ = ?MODULE:f(1),
    _ = (catch ?MODULE:g(two)),
    unregister(echo_srv),
    unlink(E),
    E ! stop,
    ok.

%% main/0 in a new process traced by dbg as `beamr run --trace
%% send,receive,procs,set_on_spawn --trace-call trace_text:f/1:x
%% --trace-call trace_text:g/1:x --trace-pids main` traces it.
dbg_main() ->
    {ok, _} = dbg:tracer(),
    {ok, _} = dbg:tpl(?MODULE, f, 1, x),
    {ok, _} = dbg:tpl(?MODULE, g, 1, x),
    {ok, _} = dbg:p(new, [m, c, procs, sos]),
    {_, Ref} = spawn_monitor(?MODULE, main, []),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    %% Every trace message is at dbg's tracer; it has handed the last of
    %% them to the io server once its queue is empty and it waits (however
    %% long that takes), and a request of ours after it is answered once
    %% the io server has written them.
    Delivered = erlang:trace_delivered(all),
    receive {trace_delivered, all, Delivered} -> ok end,
    {ok, Tracer} = dbg:get_tracer(),
    drained(Tracer),
    ok = io:put_chars(""),
    dbg:stop().

drained(P) ->
    case process_info(P, [message_queue_len, status]) of
        [{message_queue_len, 0}, {status, waiting}] -> ok;
        _ -> timer:sleep(10), drained(P)
    end.
