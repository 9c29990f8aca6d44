%% Prints, one per line, the atoms erl has when a program started with
%% `erl -noshell -s erl_boot_atoms main` runs, in atom-index order
%% (`cargo xtask erl-atom-order` runs it; see beamr-core/src/atom/erl_order.rs).
%%
%% erl cannot list its atoms, so the candidates are every name in an atom
%% chunk of the release's .beam files and every run of name characters in
%% the emulator and the .app files; those that exist are sorted by index,
%% which a two-key map shows (OTP 26+ keeps atom keys in index order). The
%% list goes on past the boot (this module's atoms and the ones its work
%% creates) are left out.
-module(erl_boot_atoms).
-export([main/0]).

main() ->
    Root = code:root_dir(),
    Beams = filelib:wildcard(filename:join(Root, "**/*.beam")),
    Texts = filelib:wildcard(filename:join(Root, "erts-*/bin/beam.smp"))
        ++ filelib:wildcard(filename:join(Root, "lib/*/ebin/*.app")),
    Names = lists:usort(lists:flatmap(fun beam_atoms/1, Beams)
                        ++ lists:flatmap(fun words/1, Texts)),
    Existing = [A || N <- Names, A <- [existing(N)], A =/= none],
    Sorted = lists:sort(fun before/2, Existing),
    [io:put_chars([atom_to_binary(A), $\n]) || A <- boot(Sorted, Names), A =/= ?MODULE],
    halt().

%% The atoms before this module's load created its own: the load creates
%% them in one batch, which holds the names no other file has.
boot(Sorted, Names) ->
    Own = [binary_to_existing_atom(N) || N <- beam_atoms(code:which(?MODULE))],
    Unique = Own -- [binary_to_existing_atom(N) || N <- Names, lists:member(N, own_names(Own))],
    {Before, _} = lists:splitwith(fun(A) -> not lists:member(A, Unique -- [?MODULE]) end, Sorted),
    lists:reverse(lists:dropwhile(fun(A) -> lists:member(A, Own) end, lists:reverse(Before))).

own_names(Own) -> [atom_to_binary(A) || A <- Own].

before(A, B) -> hd(maps:keys(#{A => 1, B => 2})) =:= A.

existing(Name) ->
    try binary_to_existing_atom(Name, utf8) catch error:badarg -> none end.

%% The names in a .beam file's atom chunk.
beam_atoms(File) ->
    {ok, Bin} = file:read_file(File),
    case chunk(Bin) of
        <<Count:32/signed, Rest/binary>> when Count < 0 -> compact_names(-Count, Rest);
        <<Count:32, Rest/binary>> -> byte_names(Count, Rest);
        none -> []
    end.

chunk(<<"FOR1", _:32, "BEAM", Chunks/binary>>) -> find(Chunks);
chunk(_) -> none.

find(<<"AtU8", Len:32, Data:Len/binary, _/binary>>) -> Data;
find(<<_:4/binary, Len:32, Rest0/binary>>) ->
    Pad = (4 - Len rem 4) rem 4,
    case Rest0 of
        <<_:Len/binary, _:Pad/binary, Rest/binary>> -> find(Rest);
        _ -> none
    end;
find(_) -> none.

%% OTP 27 and before: a length byte, then the name.
byte_names(0, _) -> [];
byte_names(N, <<Len, Name:Len/binary, Rest/binary>>) -> [Name | byte_names(N - 1, Rest)];
byte_names(_, _) -> [].

%% OTP 28 and later (a negative count): the length as a compact term.
compact_names(0, _) -> [];
compact_names(N, Bin) ->
    case compact_len(Bin) of
        {Len, After} when byte_size(After) >= Len ->
            <<Name:Len/binary, Rest/binary>> = After,
            [Name | compact_names(N - 1, Rest)];
        _ -> []
    end.

compact_len(<<L:4, 0:1, _:3, Rest/binary>>) -> {L, Rest};
compact_len(<<H:3, 0:1, 1:1, _:3, L, Rest/binary>>) -> {(H bsl 8) bor L, Rest};
compact_len(_) -> none.

%% Runs of printable characters (the emulator's atom names are C strings).
words(File) ->
    {ok, Bin} = file:read_file(File),
    Separators = [<<C>> || C <- lists:seq(0, 255), not name_char(C)],
    [W || W <- binary:split(Bin, Separators, [global, trim_all]), byte_size(W) < 256].

name_char(C) -> C >= 32 andalso C < 127 andalso C =/= $" andalso C =/= $`.
