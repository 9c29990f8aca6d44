-module(port_exit_status).
-export([main/0]).

%% exit_status: {Port, {exit_status, N}} once the program has exited,
%% before the port closes ('EXIT' normal to a trapping owner) or, with
%% eof, before {Port, eof}.
main() ->
    process_flag(trap_exit, true),
    [show(Cmd, Opts) || Cmd <- ["exit 0", "echo out; exit 3", "exit 255", "kill -9 $$"],
                        Opts <- [[exit_status], [exit_status, eof], [eof], []]],
    ok.

show(Cmd, Opts) ->
    P = open_port({spawn, "sh -c '" ++ Cmd ++ "'"}, Opts),
    Msgs = drain(P, 5000),
    case lists:member(eof, Opts) of
        true -> port_close(P);
        false -> ok
    end,
    After = drain(P, 200),
    io:format("~s ~p: ~p then ~p~n", [Cmd, Opts, Msgs, After]).

%% The messages up to eof or the port's exit (which end a port's life),
%% or whatever comes within Timeout.
drain(P, Timeout) ->
    receive
        {P, {data, D}} -> [{data, D} | drain(P, Timeout)];
        {P, eof} -> [eof];
        {P, {exit_status, N}} -> [{exit_status, N} | drain(P, Timeout)];
        {'EXIT', P, R} -> [{'EXIT', R}]
    after Timeout -> []
    end.
