%% init:get_arguments/0 and init:get_argument/1 for the flags erl's start
%% script gives every node (root, bindir, progname, home, noshell), as
%% facts about their values; a flag never given, and one that is not an
%% atom, answer error.
-module(boot_init_arguments).
-export([main/0]).

main() ->
    {ok, [[Root]]} = init:get_argument(root),
    io:format("root is code:root_dir(): ~p~n", [Root =:= code:root_dir()]),
    {ok, [[Bindir]]} = init:get_argument(bindir),
    io:format("bindir under root: ~p~n", [lists:prefix(Root, Bindir)]),
    io:format("bindir names erts: ~p~n",
              [filename:basename(filename:dirname(Bindir))
               =:= "erts-" ++ erlang:system_info(version)]),
    io:format("progname: ~p~n", [init:get_argument(progname)]),
    {ok, [[Home]]} = init:get_argument(home),
    io:format("home is HOME: ~p~n", [Home =:= os:getenv("HOME")]),
    io:format("noshell: ~p~n", [init:get_argument(noshell)]),
    io:format("never given: ~p~n", [init:get_argument(no_such_flag)]),
    io:format("a string: ~p~n", [init:get_argument("home")]),
    Keys = [K || {K, _} <- init:get_arguments()],
    io:format("keys: ~p~n", [[K || K <- [root, bindir, progname, home, noshell],
                                   lists:member(K, Keys)]]),
    io:format("each once: ~p~n",
              [[length([x || {K2, _} <- init:get_arguments(), K2 =:= K]) || K <- [root, progname, home]]]),
    io:format("plain arguments: ~p~n", [init:get_plain_arguments()]).
