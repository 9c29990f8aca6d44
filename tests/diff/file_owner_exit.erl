%% A file is closed when the process that opened it ends, as erts's
%% resource monitor closes it: a raw file whose owner returned, crashed or
%% was killed reads as closed ({error, einval}) through a copy of its
%% handle taken over by another process, and the io server of a non-raw
%% file ends with its owner. Works in a directory of its own under the
%% current one, removed at the end.
-module(file_owner_exit).
-export([main/0]).

main() ->
    Dir = "file_owner_exit_tmp_" ++ os:getpid(),
    ok = file:make_dir(Dir),
    F = filename:join(Dir, "f.txt"),
    ok = file:write_file(F, <<"hello world">>),
    try
        Procs = length(processes()),
        Ports = length(erlang:ports()),
        [raw_owner(F, How) || How <- [return, crash, kill, exit_normal]],
        [io_owner(F, How) || How <- [return, crash, kill]],
        still_mine(F),
        many(F, 50),
        io:format("processes back: ~p~n", [length(processes()) =:= Procs]),
        io:format("ports unchanged: ~p~n", [length(erlang:ports()) =:= Ports]),
        io:format("delete: ~p~n", [file:delete(F)]),
        io:format("reopen: ~p~n", [element(1, file:open(F, [write, exclusive, raw]))])
    after
        [file:delete(filename:join(Dir, N)) || N <- element(2, file:list_dir(Dir))],
        file:del_dir(Dir)
    end.

%% The handle as if `self()` had opened it: prim_file checks the owner in
%% Erlang, so only the NIF's own answer (open or closed) is left to see.
adopt({file_descriptor, prim_file, Data}) ->
    {file_descriptor, prim_file, Data#{owner => self()}};
adopt({file_descriptor, Wrapper, Inner}) ->
    {file_descriptor, Wrapper, adopt(Inner)}.

finish(return) -> ok;
finish(crash) -> exit(on_purpose);
finish(kill) -> exit(self(), kill), receive never -> ok end;
finish(exit_normal) -> exit(normal).

raw_owner(F, How) ->
    Self = self(),
    {P, M} = spawn_monitor(fun() ->
        {ok, Fd} = file:open(F, [read, raw, binary]),
        Self ! {fd, self(), Fd},
        receive go -> finish(How) end
    end),
    Fd = receive {fd, P, X} -> X end,
    io:format("raw ~p, owner alive: ~p~n", [How, file:read(adopt(Fd), 5)]),
    P ! go,
    Reason = receive {'DOWN', M, process, P, R} -> R end,
    %% erts closes the file in the NIF resource's down callback, which can
    %% run after the 'DOWN' message arrives (erl 27 under load once read
    %% on): wait until it has.
    closed(Fd),
    io:format("  owner ended ~p, read: ~p, close: ~p, owner check: ~p~n",
              [short(Reason), file:read(adopt(Fd), 5), file:close(adopt(Fd)),
               owner_check(Fd)]).

%% Until the file is closed (its position unknown), up to 30 s or more:
%% a file left open is then what the next line shows.
closed(Fd) -> closed(Fd, 30000).

closed(_, 0) -> ok;
closed(Fd, N) ->
    case file:position(adopt(Fd), cur) of
        {error, _} -> ok;
        _ -> timer:sleep(1), closed(Fd, N - 1)
    end.

owner_check(Fd) ->
    try file:read(Fd, 1) catch error:E -> E end.

short({R, Stack}) when is_list(Stack) -> R;
short(R) -> R.

io_owner(F, How) ->
    Self = self(),
    {P, M} = spawn_monitor(fun() ->
        {ok, Io} = file:open(F, [read, binary]),
        Self ! {io, self(), Io, file:read(Io, 5)},
        receive go -> finish(How) end
    end),
    {Io, First} = receive {io, P, X, R0} -> {X, R0} end,
    IoM = monitor(process, Io),
    io:format("io ~p, read by owner: ~p, server alive: ~p~n",
              [How, First, is_process_alive(Io)]),
    P ! go,
    receive {'DOWN', M, process, P, _} -> ok end,
    IoReason = receive {'DOWN', IoM, process, Io, R} -> R end,
    io:format("  server ended: ~p, read: ~p~n", [short(IoReason), file:read(Io, 5)]).

still_mine(F) ->
    {ok, Fd} = file:open(F, [read, raw, binary]),
    {P, M} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', M, process, P, _} -> ok end,
    io:format("another process's end leaves mine open: ~p~n", [file:read(Fd, 5)]),
    io:format("close: ~p~n", [file:close(Fd)]).

%% Many owners, each leaving its files open: all are closed.
many(F, N) ->
    Self = self(),
    Pids = [spawn_monitor(fun() ->
                {ok, A} = file:open(F, [read, raw]),
                {ok, B} = file:open(F, [read, raw, binary]),
                Self ! {fds, self(), [A, B]}
            end) || _ <- lists:seq(1, N)],
    Fds = lists:append([receive {fds, P, L} -> L end || {P, _} <- Pids]),
    [receive {'DOWN', M, process, P, _} -> ok end || {P, M} <- Pids],
    lists:foreach(fun closed/1, Fds),
    Answers = lists:usort([file:read(adopt(Fd), 1) || Fd <- Fds]),
    io:format("~p owners, ~p files, reads: ~p~n", [N, length(Fds), Answers]).
