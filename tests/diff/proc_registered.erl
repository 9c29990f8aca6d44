%% Registered names: register, whereis, send to a name, unregister,
%% badarg cases, names released on exit.
-module(proc_registered).
-export([main/0]).

main() ->
    io:format("whereis none: ~p~n", [whereis(my_server)]),
    Self = self(),
    P = spawn(fun() -> server(Self) end),
    io:format("register: ~p~n", [register(my_server, P)]),
    io:format("whereis ok: ~p~n", [whereis(my_server) =:= P]),
    my_server ! {ping, 1},
    receive {pong, 1} -> io:format("pong by name~n") end,
    erlang:send(my_server, {ping, 2}),
    receive {pong, 2} -> io:format("pong by send/2~n") end,
    io:format("registered has: ~p~n", [lists:member(my_server, registered())]),
    io:format("process_info: ~p~n", [process_info(P, registered_name)]),
    io:format("self name: ~p~n", [process_info(self(), registered_name)]),
    %% Errors.
    io:format("twice: ~p~n", [err(fun() -> register(my_server, self()) end)]),
    io:format("second name: ~p~n", [err(fun() -> register(other_name, P) end)]),
    io:format("undefined: ~p~n", [err(fun() -> register(undefined, self()) end)]),
    io:format("not atom: ~p~n", [err(fun() -> register("name", self()) end)]),
    io:format("send to unknown: ~p~n", [err(fun() -> no_such_name ! hello end)]),
    io:format("unregister unknown: ~p~n", [err(fun() -> unregister(no_such_name) end)]),
    %% Unregister and re-register.
    io:format("unregister: ~p~n", [unregister(my_server)]),
    io:format("whereis after: ~p~n", [whereis(my_server)]),
    true = register(my_server, P),
    %% The name goes when the process exits.
    Ref = monitor(process, P),
    my_server ! stop,
    receive {'DOWN', Ref, process, P, normal} -> ok end,
    io:format("after exit: ~p~n", [whereis(my_server)]),
    %% A dead process cannot be registered.
    io:format("dead: ~p~n", [err(fun() -> register(dead_name, P) end)]),
    %% Register self, and send to self by name.
    true = register(main_proc, self()),
    main_proc ! to_myself,
    receive to_myself -> io:format("to myself~n") end,
    io:format("self name: ~p~n", [process_info(self(), registered_name)]),
    true = unregister(main_proc),
    %% send/3 with noconnect and nosuspend to a name
    io:format("{Name,Node} send: ~p~n", [err(fun() -> {no_such_name, node()} ! x end)]).

server(Parent) ->
    receive
        {ping, N} -> Parent ! {pong, N}, server(Parent);
        stop -> ok
    end.

%% The class and reason of an exception, or the value (no stack traces).
err(F) ->
    try F() catch C:R -> {C, R} end.
