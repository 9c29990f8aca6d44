%% erlang:garbage_collect/1,2's arguments (found by cargo xtask difffuzz,
%% erlfuzz seed 10193 on OTP 27: garbage_collect([]) raised no badarg): a
%% live process, a dead one, something not a pid, the options, and async's
%% reply.
-module(gc_garbage_collect_args).
-export([main/0]).

t(F) -> try F() of V -> {ok, V} catch C:R -> {C, R} end.

main() ->
    {Dead, R} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', R, process, Dead, _} -> ok end,
    Live = spawn(fun() -> receive stop -> ok end end),
    Calls = [
        fun() -> erlang:garbage_collect() end,
        fun() -> erlang:garbage_collect(self()) end,
        fun() -> erlang:garbage_collect(Live) end,
        fun() -> erlang:garbage_collect(Dead) end,
        fun() -> erlang:garbage_collect([]) end,
        fun() -> erlang:garbage_collect(a) end,
        fun() -> erlang:garbage_collect(self(), []) end,
        fun() -> erlang:garbage_collect(self(), [{type, minor}, {type, major}]) end,
        fun() -> erlang:garbage_collect(self(), [{type, other}]) end,
        fun() -> erlang:garbage_collect(self(), [bad]) end,
        fun() -> erlang:garbage_collect(self(), nolist) end,
        fun() -> erlang:garbage_collect(self(), [{type, minor} | x]) end,
        fun() -> erlang:garbage_collect(x, []) end,
        fun() -> erlang:garbage_collect(self(), [{async, tag1}]) end,
        fun() -> erlang:garbage_collect(Dead, [{async, tag2}]) end,
        fun() -> erlang:garbage_collect(Live, [{async, a}, {async, b}]) end
    ],
    [io:format("~p~n", [t(F)]) || F <- Calls],
    [io:format("reply ~p~n", [receive {garbage_collect, Tag, _} = M when Tag =:= T -> M
                                  after 2000 -> none end]) || T <- [tag1, tag2, b]],
    Live ! stop,
    io:format("done~n").
