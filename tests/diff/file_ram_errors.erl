%% RAM file errors as erl gives them: writing or truncating a file opened
%% read-only, reading one opened write-only, negative and out-of-range
%% positions, bad position forms, pwrite/pread with bad offsets, modes
%% ram_file does not take, data that is not iodata, a closed file, and
%% functions a RAM file lacks (read_line).
-module(file_ram_errors).
-export([main/0]).

p(Label, Value) -> io:format("~s: ~p~n", [Label, Value]).

main() ->
    {ok, R} = file:open(<<"read only">>, [ram, read, binary]),
    p("write read-only", file:write(R, <<"x">>)),
    p("pwrite read-only", file:pwrite(R, 0, <<"x">>)),
    p("pwrite list read-only", file:pwrite(R, [{0, <<"x">>}])),
    p("truncate read-only", file:truncate(R)),
    p("position -1", file:position(R, -1)),
    p("position bof -1", file:position(R, {bof, -1})),
    p("position eof -100", file:position(R, {eof, -100})),
    p("position cur -1", file:position(R, {cur, -1})),
    p("position 2^40", file:position(R, 1 bsl 40)),
    p("position foo", file:position(R, foo)),
    p("position {eof, x}", file:position(R, {eof, x})),
    p("position unchanged", file:position(R, cur)),
    p("pread -1", file:pread(R, -1, 2)),
    p("pread 2^40", file:pread(R, 1 bsl 40, 2)),
    p("pread bad size", file:pread(R, 0, -1)),
    p("pread list bad", file:pread(R, [{0, 1}, {x, 1}])),
    p("read_line", element(1, catch file:read_line(R))),
    p("close", file:close(R)),
    p("read closed", file:read(R, 1)),
    p("write closed", file:write(R, "x")),
    p("position closed", file:position(R, 0)),
    p("close again", file:close(R)),
    {ok, W} = file:open("write only", [ram, write]),
    p("read write-only", file:read(W, 1)),
    p("pread write-only", file:pread(W, 0, 1)),
    p("pwrite -1", file:pwrite(W, -1, "b")),
    p("pwrite list -1", file:pwrite(W, [{0, "a"}, {-1, "b"}])),
    p("pwrite list 2^40", file:pwrite(W, [{0, "a"}, {1 bsl 40, "b"}])),
    p("pwrite not iodata", file:pwrite(W, [{0, [foo]}])),
    p("get_file", ram_file:get_file(W)),
    p("close", file:close(W)),
    p("append", file:open("x", [ram, append])),
    p("compressed", file:open("x", [ram, compressed])),
    p("encoding", file:open("x", [ram, read, {encoding, utf8}])),
    p("exclusive", file:open("x", [ram, exclusive])),
    p("atom data", file:open(foo, [ram, read])),
    p("bad iolist", file:open([1, 2, foo], [ram, read])),
    p("improper modes", element(1, catch file:open("x", [ram, read | bad]))),
    ok.
