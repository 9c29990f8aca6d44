-module(port_owner_death).
-export([main/0]).

%% A dying owner closes its ports: the program reads end of file on its
%% standard input (it writes a file then), and a monitor sees the port go.
main() ->
    Dir = filename:join("/tmp", "beamr_port_owner_" ++ os:getpid()),
    ok = filelib:ensure_dir(filename:join(Dir, "x")),
    Done = filename:join(Dir, "done"),
    file:delete(Done),
    Self = self(),
    Owner = spawn(fun() ->
        P = open_port({spawn, "sh -c 'cat > /dev/null; echo stdin-closed > " ++ Done ++ "'"}, []),
        Self ! {port, P},
        receive stop -> exit(crash) end
    end),
    P = receive {port, Port} -> Port end,
    Ref = erlang:monitor(port, P),
    io:format("open ~p~n", [erlang:port_info(P, connected) =:= {connected, Owner}]),
    Owner ! stop,
    receive {'DOWN', Ref, port, P, Reason} -> io:format("down ~p~n", [Reason]) after 5000 -> io:format("no down~n") end,
    io:format("closed ~p~n", [erlang:port_info(P)]),
    %% Up to 30 s: the child writes it in milliseconds, a loaded machine
    %% may take longer to run it.
    io:format("child saw ~p~n", [wait_file(Done, 300)]),
    file:delete(Done),
    file:del_dir(Dir),
    %% An owner that ends normally closes its port too.
    Owner2 = spawn(fun() -> P2 = open_port({spawn, "cat"}, []), Self ! {port, P2} end),
    P2 = receive {port, Port2} -> Port2 end,
    Ref2 = erlang:monitor(port, P2),
    receive {'DOWN', Ref2, port, P2, R2} -> io:format("normal owner: down ~p~n", [R2]) after 5000 -> io:format("no down~n") end,
    io:format("~p~n", [is_pid(Owner2)]).

wait_file(_F, 0) -> timeout;
wait_file(F, N) ->
    case file:read_file(F) of
        {ok, B} when byte_size(B) > 0 -> B;
        _ -> timer:sleep(100), wait_file(F, N - 1)
    end.
