%% process_info(P, current_stacktrace) of a process waiting in a receive
%% names the line in effect before the receive (the BEAM suspends it at
%% the start of its receive loop), also when the receive's clauses call
%% functions (whose lines come after it in the code) and with a timeout.
-module(proc_waiting_stacktrace).
-export([main/0, plain/0, calls/1, nested/0, after_timeout/1]).

plain() ->
    X = self(),
    receive
        stop -> X
    end.

calls(T) ->
    Ref = make_ref(),
    erlang:send(self(), {other, 1}, [noconnect]),
    receive
        {Ref, R} -> lists:reverse(R);
        {'DOWN', Ref, _, _, Reason} -> exit(Reason);
        {alias, Ref} -> erlang:demonitor(Ref, [flush])
    after T ->
        erlang:error(timeout)
    end.

nested() ->
    helper(),
    done.

helper() ->
    receive
        {a, X} -> io:format("~p~n", [X]);
        {b, Y} -> erlang:display(Y)
    end,
    ok.

after_timeout(T) ->
    receive
    after T ->
        lists:seq(1, 3)
    end.

main() ->
    [begin
         P = spawn(?MODULE, F, A),
         waiting(P),
         io:format("~p~n", [process_info(P, current_stacktrace)]),
         exit(P, kill)
     end || {F, A} <- [{plain, []}, {calls, [infinity]}, {calls, [60000]},
                       {nested, []}, {after_timeout, [60000]}]],
    {ok, Pid} = gen_server_waiting(),
    io:format("~p~n", [process_info(Pid, current_function)]),
    exit(Pid, kill),
    ok.

%% A process waiting in gen:do_call (OTP's own code, lines after the
%% receive in its clauses): only its function is printed, as its lines
%% differ between releases.
gen_server_waiting() ->
    Self = self(),
    Server = spawn(fun() -> receive _ -> Self ! ready, receive never -> ok end end end),
    Client = spawn(fun() -> catch gen_server:call(Server, hello, 60000) end),
    receive ready -> ok end,
    waiting(Client),
    {ok, Client}.

%% Until P waits in a receive (however long a loaded machine takes to get
%% it there).
waiting(P) ->
    case process_info(P, status) of
        {status, waiting} -> ok;
        _ -> timer:sleep(1), waiting(P)
    end.
