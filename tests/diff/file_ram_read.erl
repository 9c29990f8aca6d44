%% RAM files (file:open(Data, [ram | Modes]), kernel's ram_file over
%% ram_file_drv) read: in binary and list mode, from binary, string and
%% iolist data; read/2 to the end and past it, position in every form,
%% pread/3 and pread/2 with eof entries, a zero-length read.
-module(file_ram_read).
-export([main/0]).

p(Label, Value) -> io:format("~s: ~p~n", [Label, Value]).

main() ->
    [run(Data, Mode) || Data <- [<<"hello world\nline two\n">>,
                                 "hello world\nline two\n",
                                 [<<"hello">>, " wor", [$l, <<"d\n">>], "line two\n"]],
                        Mode <- [[binary], [], [read, binary], [read]]],
    ok.

run(Data, Mode) ->
    io:format("== ~p~n", [Mode]),
    {ok, F} = file:open(Data, [ram | Mode]),
    p("read 5", file:read(F, 5)),
    p("position cur", file:position(F, cur)),
    p("read 0", file:read(F, 0)),
    p("read 7", file:read(F, 7)),
    p("position eof-3", file:position(F, {eof, -3})),
    p("read rest", file:read(F, 100)),
    p("read at end", file:read(F, 100)),
    p("read 0 at end", file:read(F, 0)),
    p("position bof", file:position(F, bof)),
    p("position 6", file:position(F, 6)),
    p("position cur+2", file:position(F, {cur, 2})),
    p("position cur-1", file:position(F, {cur, -1})),
    p("read 3", file:read(F, 3)),
    p("position eof", file:position(F, eof)),
    p("position past end", file:position(F, {eof, 10})),
    p("read past end", file:read(F, 1)),
    p("pread 0 5", file:pread(F, 0, 5)),
    p("pread 18 10", file:pread(F, 18, 10)),
    p("pread past end", file:pread(F, 100, 5)),
    p("pread 0 0", file:pread(F, 0, 0)),
    p("pread list", file:pread(F, [{0, 2}, {6, 5}, {99, 1}, {12, 0}])),
    p("position after pread", file:position(F, cur)),
    p("size", ram_file:get_size(F)),
    p("get_file", ram_file:get_file(F)),
    p("close", file:close(F)).
