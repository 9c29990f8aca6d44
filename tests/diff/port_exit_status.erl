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
    Msgs = drain(P),
    case lists:member(eof, Opts) of
        true -> port_close(P);
        false -> ok
    end,
    After = drain(P),
    io:format("~s ~p: ~p then ~p~n", [Cmd, Opts, Msgs, After]).

drain(P) ->
    receive
        {P, {data, D}} -> [{data, D} | drain(P)];
        {P, eof} -> [eof];
        {P, {exit_status, N}} -> [{exit_status, N} | drain(P)];
        {'EXIT', P, R} -> [{'EXIT', R}]
    after 2000 -> []
    end.
