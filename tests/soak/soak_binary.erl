%% A binary past 4 GiB (4 GiB plus 1 MiB, so sizes and offsets need more
%% than 32 bits), grown by appending 1 MiB at a time as a loop that builds
%% a buffer does. Prints its size, bytes read back at both ends and across
%% the 4 GiB mark, and a sub-binary's size and bytes from beyond it.
-module(soak_binary).
-export([main/0]).

-define(MIB, 1048576).
-define(CHUNKS, 4097).

main() ->
    Big = grow(<<>>, 0),
    Size = byte_size(Big),
    Mark = 4096 * ?MIB,
    <<_:Mark/binary, Tail/binary>> = Big,
    io:format("size ~w first ~w last ~w at_mark ~w~n",
              [Size, binary:at(Big, 0), binary:at(Big, Size - 1), binary:at(Big, Mark)]),
    io:format("tail ~w ~w ~w~n",
              [byte_size(Tail), binary:first(Tail), binary:part(Tail, ?MIB - 4, 4)]),
    io:format("before_mark ~w~n", [binary:part(Big, Mark - 2, 4)]).

%% Chunk I is 1 MiB of the byte I rem 251.
grow(Acc, ?CHUNKS) -> Acc;
grow(Acc, I) ->
    Chunk = binary:copy(<<(I rem 251)>>, ?MIB),
    grow(<<Acc/binary, Chunk/binary>>, I + 1).
