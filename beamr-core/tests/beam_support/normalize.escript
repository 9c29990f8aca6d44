#!/usr/bin/env escript
%% Reference side of the disassembler test (beam_disasm.rs).
%%
%% escript normalize.escript FILE.S FILE.beam prints:
%%   "L " ++ Text   for each literal of FILE.beam's LitT chunk, in table
%%                  order, as ~w writes it (decoded by erlang itself);
%%   "I " ++ Text   for each form of FILE.S, in order, normalized as below.
%%
%% Normalization of the .S forms (each for a stated reason):
%% - {'%',_} annotations and {attributes,_} are dropped: they are not code
%%   (attributes live in the Attr chunk as ETF, printed by nobody yet).
%% - {tr,Reg,Type} becomes Reg: the .beam keeps only an index into the Type
%%   chunk, and the assembler drops types it cannot encode.
%% - {field_flags,Flags} keeps only the flags that set a bit (big, unsigned
%%   and {anno,_} encode as 0), in bit order: that is all the .beam holds.
%% - a line instruction keeps only its {location,File,Line}: the Line chunk
%%   holds nothing else (annotations such as {scope,_} are dropped by the
%%   assembler).
%% - the exports list is sorted.
%% Everything is written as ~w writes it, except the file name of a
%% {location,File,Line}, which is written as a string.
-mode(compile).

main([SFile, BeamFile]) ->
    io:setopts([{encoding, unicode}]),
    [emit("L ", io_lib:write(T)) || T <- literals(BeamFile)],
    {ok, Forms} = file:consult(SFile),
    [emit("I ", fmt(norm(F))) || F <- Forms, keep(F)],
    ok.

emit(Prefix, Text) ->
    io:put_chars([Prefix, Text, $\n]).

literals(BeamFile) ->
    case beam_lib:chunks(BeamFile, ["LitT"], [allow_missing_chunks]) of
        {ok, {_, [{"LitT", missing_chunk}]}} -> [];
        {ok, {_, [{"LitT", <<_Size:32, Z/binary>>}]}} ->
            <<N:32, Rest/binary>> = zlib:uncompress(Z),
            split(N, Rest)
    end.

split(0, <<>>) -> [];
split(N, <<Sz:32, Ext:Sz/binary, Rest/binary>>) ->
    [binary_to_term(Ext) | split(N - 1, Rest)].

keep({'%', _}) -> false;
keep({attributes, _}) -> false;
keep(_) -> true.

norm({exports, L}) -> {exports, lists:sort(L)};
norm({line, L}) -> {line, [E || {location, _, _} = E <- L]};
norm({tr, R, _}) -> norm(R);
norm({field_flags, L}) when is_list(L) ->
    {field_flags, [F || F <- [aligned, little, signed, exact, native], lists:member(F, L)]};
norm({literal, _} = L) -> L;
norm({float, _} = F) -> F;
norm(T) when is_tuple(T) -> list_to_tuple([norm(E) || E <- tuple_to_list(T)]);
norm(L) when is_list(L) -> [norm(E) || E <- L];
norm(X) -> X.

fmt({location, File, Line}) when is_list(File) ->
    ["{location,", io_lib:write_string(File), ",", integer_to_list(Line), "}"];
fmt({literal, _} = L) -> io_lib:write(L);
fmt({float, _} = F) -> io_lib:write(F);
fmt(T) when is_tuple(T) -> ["{", join([fmt(E) || E <- tuple_to_list(T)]), "}"];
fmt(L) when is_list(L) -> ["[", join([fmt(E) || E <- L]), "]"];
fmt(X) -> io_lib:write(X).

join([]) -> [];
join([H | T]) -> [H | [[",", E] || E <- T]].
