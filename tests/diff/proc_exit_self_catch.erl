%% exit(self(), Reason) in a process that does not trap exits ends it
%% before any handler runs: `catch`, `try ... catch` and `try ... after`
%% see nothing, and a proc_lib process (as gen_server's and Gleam's
%% actors are) logs no crash report. A trapping process gets the message
%% and goes on (`catch` of the call gives `true`).
-module(proc_exit_self_catch).
-export([main/0]).

main() ->
    process_flag(trap_exit, true),
    [one(Case) || Case <- [caught, caught_kill, caught_normal, try_catch, try_after, proc_lib]],
    io:format("trapping: ~p~n", [catch exit(self(), x)]),
    receive {'EXIT', Me, x} when Me =:= self() -> io:format("trapping: got the message~n") end,
    io:format("done~n").

one(Case) ->
    Self = self(),
    P = case Case of
            proc_lib -> proc_lib:spawn_link(fun() -> body(Case, Self) end);
            _ -> spawn_link(fun() -> body(Case, Self) end)
        end,
    receive {'EXIT', P, Why} -> io:format("~p: exit ~p~n", [Case, Why]) end,
    receive Went -> io:format("~p: then ~p~n", [Case, Went]) after 50 -> ok end.

body(caught, S) -> S ! {went_on, catch exit(self(), wibble)};
body(caught_kill, S) -> S ! {went_on, catch exit(self(), kill)};
body(caught_normal, S) -> S ! {went_on, catch exit(self(), normal)};
body(try_catch, S) ->
    try exit(self(), boom) catch C:R -> S ! {caught, C, R} end;
body(try_after, S) ->
    try exit(self(), boom) after S ! after_ran end;
body(proc_lib, _) ->
    exit(self(), <<"wibble">>),
    lists:seq(1, 10).
