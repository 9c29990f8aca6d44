%% init:stop/1 ends the program with that status, after main's output.
-module(boot_init_stop).
-export([main/0]).

main() ->
    io:format("stopping~n"),
    ok = init:stop(4),
    receive after infinity -> ok end.
