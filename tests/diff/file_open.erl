%% Open files, raw and through the file io server: modes (read, write,
%% append, exclusive, binary, list, read_ahead, delayed_write), reads and
%% writes, position, pread/pwrite, truncate, sync, line reading, io module
%% requests on a file, a closed handle, and the errors erl gives. Works in a
%% directory of its own under the current one, removed at the end.
-module(file_open).
-export([main/0]).

main() ->
    Dir = "file_open_tmp_" ++ os:getpid(),
    ok = file:make_dir(Dir),
    try
        [run(Dir, Kind) || Kind <- [[raw], [], [raw, read_ahead], [read_ahead],
                                    [delayed_write], [raw, delayed_write]]],
        io_requests(Dir),
        errors(Dir)
    after
        cleanup(Dir)
    end.

p(Label, Value) -> io:format("  ~s: ~p~n", [Label, Value]).

run(Dir, Kind) ->
    io:format("~p~n", [Kind]),
    F = filename:join(Dir, "f.txt"),
    {ok, W} = file:open(F, [write, binary | Kind]),
    p("write", file:write(W, <<"line one\nline two\r\nline three">>)),
    p("write iolist", file:write(W, ["\n", <<"four">>, $\n])),
    p("close", file:close(W)),
    p("contents", file:read_file(F)),
    {ok, R} = file:open(F, [read, binary | Kind]),
    p("read 4", file:read(R, 4)),
    p("read_line", file:read_line(R)),
    p("read_line crlf", file:read_line(R)),
    p("position cur", file:position(R, cur)),
    p("read_line", file:read_line(R)),
    p("read_line", file:read_line(R)),
    p("read_line eof", file:read_line(R)),
    p("read eof", file:read(R, 10)),
    p("position bof", file:position(R, bof)),
    p("read 100", file:read(R, 100)),
    p("position {bof, 5}", file:position(R, {bof, 5})),
    p("read 3", file:read(R, 3)),
    p("position {cur, -2}", file:position(R, {cur, -2})),
    p("read 3", file:read(R, 3)),
    p("position {eof, -5}", file:position(R, {eof, -5})),
    p("read 10", file:read(R, 10)),
    p("position 2", file:position(R, 2)),
    p("read 0", file:read(R, 0)),
    p("position negative", file:position(R, {bof, -1})),
    p("pread", file:pread(R, 5, 3)),
    p("pread list", file:pread(R, [{0, 4}, {100, 3}, {9, 3}])),
    p("pread past end", file:pread(R, 1000, 3)),
    p("write on read-only", file:write(R, <<"x">>)),
    p("close", file:close(R)),
    {ok, L} = file:open(F, [read | Kind]),
    p("list read", file:read(L, 5)),
    p("list read_line", file:read_line(L)),
    ok = file:close(L),
    {ok, RW} = file:open(F, [read, write, binary | Kind]),
    p("rw read", file:read(RW, 4)),
    p("rw write", file:write(RW, <<"ONE">>)),
    p("pwrite", file:pwrite(RW, 0, <<"LI">>)),
    p("pwrite list", file:pwrite(RW, [{10, <<"L">>}, {11, "I"}])),
    p("position", file:position(RW, 20)),
    p("truncate", file:truncate(RW)),
    p("sync", file:sync(RW)),
    p("datasync", file:datasync(RW)),
    p("close", file:close(RW)),
    p("contents", file:read_file(F)),
    {ok, A} = file:open(F, [append | Kind]),
    p("append", file:write(A, "++")),
    ok = file:close(A),
    p("appended", file:read_file(F)),
    p("exclusive exists", file:open(F, [exclusive | Kind])),
    G = filename:join(Dir, "g.txt"),
    {ok, E} = file:open(G, [exclusive | Kind]),
    ok = file:write(E, "new"),
    ok = file:close(E),
    p("exclusive new", file:read_file(G)),
    ok = file:delete(G),
    {ok, T} = file:open(F, [write | Kind]),
    ok = file:close(T),
    p("write truncates", file:read_file(F)),
    p("closed read", file:read(R, 1)),
    p("closed close", file:close(R)).

io_requests(Dir) ->
    io:format("io~n"),
    F = filename:join(Dir, "io.txt"),
    {ok, W} = file:open(F, [write, {encoding, utf8}]),
    io:format(W, "~p.~n~ts~n", [{a, [1, 2], "x"}, "caf\x{e9} \x{263a}"]),
    io:put_chars(W, "second line\n"),
    io:write(W, {x, y}),
    io:nl(W),
    ok = file:close(W),
    p("contents", file:read_file(F)),
    {ok, R} = file:open(F, [read, {encoding, utf8}]),
    p("io:read", io:read(R, '')),
    p("io:get_line", io:get_line(R, '')),
    p("io:get_line", io:get_line(R, '')),
    p("io:get_chars", io:get_chars(R, '', 3)),
    p("io:fread", io:fread(R, '', "~a")),
    p("io:get_line rest", io:get_line(R, '')),
    p("io:get_line eof", io:get_line(R, '')),
    ok = file:close(R),
    {ok, B} = file:open(F, [read, binary]),
    p("binary get_line", io:get_line(B, '')),
    ok = file:close(B),
    p("io server is a pid", begin {ok, X} = file:open(F, [read]), is_pid(X) andalso file:close(X) =:= ok end),
    p("raw is a record", begin {ok, Y} = file:open(F, [read, raw]), element(1, Y) =:= file_descriptor andalso file:close(Y) =:= ok end).

errors(Dir) ->
    io:format("errors~n"),
    Missing = filename:join(Dir, "missing"),
    [p(io_lib:format("~p", [Mode]), opened(file:open(Path, Mode)))
     || Path <- [Missing, Dir, filename:join(Missing, "x")],
        Mode <- [[read], [read, raw], [write, raw], [write]]],
    p("bad mode", file:open(filename:join(Dir, "x"), [bad_mode])),
    p("bad name", file:open(123, [read])),
    p("bad modes", file:open(filename:join(Dir, "x"), read)).

opened({ok, Fd}) -> {file:close(Fd), opened};
opened(Error) -> Error.

cleanup(Dir) ->
    {ok, Names} = file:list_dir_all(Dir),
    [ok = file:delete(filename:join(Dir, N)) || N <- Names],
    ok = file:del_dir(Dir).
