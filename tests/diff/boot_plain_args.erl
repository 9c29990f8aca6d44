%% diff-args: alpha beta -flag value 42
%% The plain arguments given after -extra to erl and after -- to beamr
%% run: init:get_plain_arguments/0, and init:get_argument/1 for flags that
%% were not given.
-module(boot_plain_args).
-export([main/0]).

main() ->
    Args = init:get_plain_arguments(),
    io:format("plain: ~p~n", [Args]),
    io:format("count: ~p~n", [length(Args)]),
    io:format("as integer: ~p~n", [list_to_integer(lists:last(Args))]),
    io:format("flag: ~p~n", [init:get_argument(flag)]),
    io:format("missing: ~p~n", [init:get_argument(no_such_flag)]).
