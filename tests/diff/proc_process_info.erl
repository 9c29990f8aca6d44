%% process_info basics: message queue, links, trap_exit, dictionary,
%% registered_name, status of a dead process.
-module(proc_process_info).
-export([main/0]).

main() ->
    Self = self(),
    P = spawn(fun() -> receive go -> ok end, receive stop -> ok end end),
    P ! one, P ! two,
    timer:sleep(20),
    io:format("queue: ~p~n", [process_info(P, message_queue_len)]),
    io:format("messages: ~p~n", [process_info(P, messages)]),
    io:format("trap: ~p~n", [process_info(P, trap_exit)]),
    io:format("name: ~p~n", [process_info(P, registered_name)]),
    register(info_target, P),
    io:format("name: ~p~n", [process_info(P, registered_name)]),
    io:format("list: ~p~n", [process_info(P, [registered_name, trap_exit, message_queue_len])]),
    L = spawn_link(fun() -> receive stop -> ok end end),
    {links, Links} = process_info(self(), links),
    io:format("links: ~p~n", [lists:member(L, Links)]),
    put(k, v),
    io:format("dict: ~p~n", [process_info(self(), dictionary)]),
    io:format("initial_call: ~p~n", [element(1, hd(tl(tuple_to_list(process_info(P, initial_call)))))]),
    io:format("group_leader same: ~p~n",
              [element(2, process_info(P, group_leader)) =:= group_leader()]),
    P ! go, P ! stop,
    Ref = monitor(process, P),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    io:format("dead: ~p~n", [process_info(P, message_queue_len)]),
    io:format("dead: ~p~n", [process_info(P)]),
    io:format("badarg: ~p~n", [try process_info(P, no_such_item) catch error:E -> E end]),
    io:format("badarg: ~p~n", [try process_info(self(), no_such_item) catch error:E2 -> E2 end]),
    io:format("self alive: ~p~n", [is_process_alive(Self)]),
    L ! stop.
