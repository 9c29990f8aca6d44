%% Binaries that are not loadable modules: erlang:load_module/2 answers
%% {error, badfile} and erts's loader logs why, naming its own source line
%% (which the release's erts has): a corrupt header (not an IFF BEAM form,
%% or a form longer than the binary, or a truncated file), a form without
%% a code chunk, the code of another module. Bad arguments raise badarg.
-module(code_load_errors).
-export([main/0]).

main() ->
    {lists, Lists, _} = code:get_object_code(lists),
    Cases = [{junk, <<"junk">>},
             {empty, <<>>},
             {not_beam, <<"FOR1", 0, 0, 0, 4, "BEAX">>},
             {form_too_long, <<"FOR1", 0, 0, 1, 4, "BEAM">>},
             {truncated, binary:part(Lists, 0, 100)},
             {no_chunks, <<"FOR1", 0, 0, 0, 4, "BEAM">>},
             {atoms_only, <<"FOR1", 0, 0, 0, 12, "BEAM", "AtU8", 0, 0, 0, 0>>},
             {other_module, Lists}],
    logger_sync:watch(),
    [begin
         R = erlang:load_module(code_load_errors_x, Bin),
         logger_sync:logged(),
         io:format("~p: ~p~n", [Name, R])
     end || {Name, Bin} <- Cases],
    io:format("loaded: ~p~n", [erlang:module_loaded(code_load_errors_x)]),
    [io:format("~p: ~p~n", [Name, try F() catch C:E -> {C, E} end])
     || {Name, F} <- [{not_binary, fun() -> erlang:load_module(code_load_errors_x, "junk") end},
                      {bitstring, fun() -> erlang:load_module(code_load_errors_x, <<1:1>>) end},
                      {not_atom, fun() -> erlang:load_module("x", <<"junk">>) end}]],
    ok.
