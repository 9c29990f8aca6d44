%% erlang:halt/2 with {flush, true} and a status, after output from other
%% processes that has reached the group leader.
-module(boot_halt_flush).
-export([main/0]).

main() ->
    Self = self(),
    [begin
         spawn(fun() -> io:format("from process ~p~n", [N]), Self ! {done, N} end),
         receive {done, N} -> ok end
     end || N <- lists:seq(1, 20)],
    io:format("all done~n"),
    erlang:halt(7, [{flush, true}]).
