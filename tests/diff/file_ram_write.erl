%% RAM files written: write-only and read-write, writes at the position
%% (overwriting, extending, leaving a zero-filled gap), pwrite/3 and
%% pwrite/2, truncate at, before and past the end, ram_file:get_file/1
%% and get_size/1, sync, datasync, advise, allocate; file:copy/2 between
%% two RAM files; many small writes read back.
-module(file_ram_write).
-export([main/0]).

p(Label, Value) -> io:format("~s: ~p~n", [Label, Value]).

main() ->
    write_only(),
    read_write([binary]),
    read_write([]),
    copy(),
    many(),
    ok.

write_only() ->
    io:format("== write only~n"),
    {ok, G} = file:open("abc", [ram, write]),
    p("write", file:write(G, "XY")),
    p("get_file", ram_file:get_file(G)),
    p("position 10", file:position(G, 10)),
    p("write iolist", file:write(G, [$z, <<"w">>, [[]]])),
    p("get_file", ram_file:get_file(G)),
    p("pwrite", file:pwrite(G, 1, "QQ")),
    p("pwrite list", file:pwrite(G, [{0, "a"}, {4, <<"bb">>}])),
    p("get_file", ram_file:get_file(G)),
    p("position after pwrite", file:position(G, cur)),
    p("position 2", file:position(G, 2)),
    p("truncate", file:truncate(G)),
    p("get_file", ram_file:get_file(G)),
    p("size", ram_file:get_size(G)),
    p("position 6", file:position(G, 6)),
    p("truncate past end", file:truncate(G)),
    p("get_file", ram_file:get_file(G)),
    p("sync", file:sync(G)),
    p("datasync", file:datasync(G)),
    p("advise", file:advise(G, 0, 10, sequential)),
    p("allocate", file:allocate(G, 0, 100)),
    p("size after allocate", ram_file:get_size(G)),
    p("close", file:close(G)).

read_write(Mode) ->
    io:format("== read write ~p~n", [Mode]),
    {ok, H} = file:open([<<"ab">>, "cd", [$e]], [ram, read, write | Mode]),
    p("read 3", file:read(H, 3)),
    p("write", file:write(H, "Z")),
    p("position bof", file:position(H, bof)),
    p("read all", file:read(H, 10)),
    p("write at end", file:write(H, <<"fgh">>)),
    p("pread", file:pread(H, 1, 2)),
    p("pwrite past end", file:pwrite(H, 10, "!")),
    p("get_file", ram_file:get_file(H)),
    p("position 4", file:position(H, 4)),
    p("truncate", file:truncate(H)),
    p("read at end", file:read(H, 1)),
    p("get_file", ram_file:get_file(H)),
    p("close", file:close(H)).

copy() ->
    io:format("== copy~n"),
    {ok, From} = file:open(<<"copy me, all of me">>, [ram, read]),
    {ok, To} = file:open(<<>>, [ram, read, write, binary]),
    p("copy 7", file:copy(From, To, 7)),
    p("copy rest", file:copy(From, To)),
    p("get_file", ram_file:get_file(To)),
    p("close", {file:close(From), file:close(To)}).

many() ->
    io:format("== many~n"),
    {ok, F} = file:open(<<>>, [ram, read, write, binary]),
    [ok = file:write(F, integer_to_list(N) ++ ",") || N <- lists:seq(1, 2000)],
    {ok, Size} = ram_file:get_size(F),
    p("size", Size),
    {ok, 0} = file:position(F, bof),
    Chunks = read_all(F, []),
    p("chunks", length(Chunks)),
    All = iolist_to_binary(Chunks),
    p("same", All =:= iolist_to_binary([[integer_to_list(N), ","] || N <- lists:seq(1, 2000)])),
    p("tail", binary:part(All, Size - 10, 10)),
    p("close", file:close(F)).

read_all(F, Acc) ->
    case file:read(F, 97) of
        {ok, Data} -> read_all(F, [Data | Acc]);
        eof -> lists:reverse(Acc)
    end.
