%% erlang:halt/1 ends the OS process with its status after the output
%% written so far (here a good deal of it, through the group leader) is
%% flushed.
-module(boot_halt_status).
-export([main/0]).

main() ->
    [io:format("line ~p of output before halting~n", [N]) || N <- lists:seq(1, 2000)],
    io:put_chars(<<"last line\n">>),
    erlang:halt(3),
    io:format("never printed~n").
