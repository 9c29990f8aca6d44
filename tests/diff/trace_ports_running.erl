%% erlang:trace/3 with running_ports: a port is scheduled in and out
%% around each thing it is asked to do, and its end comes scheduled in.
%% Which task erts names in an in/out pair (command, or 0 when the command
%% runs in a task scheduled for input from the program) and how many empty
%% pairs its poll adds vary from run to run, so the printed sequence has
%% in/out without their task and without the pairs around nothing.
-module(trace_ports_running).
-export([main/0]).

main() ->
    Self = self(),
    Tracer = spawn(fun() -> tracer([]) end),
    0 = erlang:trace(new_ports, true, [running_ports, 'receive', {tracer, Tracer}]),
    P1 = open_port({spawn, "cat"}, [binary]),
    P1 ! {self(), {command, <<"one">>}},
    receive {P1, {data, <<"one">>}} -> ok end,
    true = port_command(P1, <<"two">>),
    receive {P1, {data, <<"two">>}} -> ok end,
    true = port_close(P1),
    P2 = open_port({spawn, "cat"}, []),
    P2 ! {self(), close},
    receive {P2, closed} -> ok end,
    timer:sleep(50),
    Tracer ! {dump, self()},
    Events = receive {events, Es} -> Es end,
    Named = tl(trace_names:ordered([Self | Events])),
    Ports = lists:usort([element(2, E) || E <- Named]),
    [io:format("~p: ~p~n", [Port, squeeze([short(E) || E <- Named, element(2, E) =:= Port])])
     || Port <- Ports],
    ok.

short({trace, _, in, _}) -> in;
short({trace, _, out, _}) -> out;
short({trace, _, 'receive', {_, Op}}) -> Op.

squeeze([in, out | Rest]) -> squeeze(Rest);
squeeze([E | Rest]) ->
    case squeeze(Rest) of
        [out | _] = Squeezed when E =:= in -> squeeze([in | Squeezed]);
        Squeezed -> [E | Squeezed]
    end;
squeeze([]) -> [].

tracer(Acc) ->
    receive
        {dump, To} -> To ! {events, lists:reverse(Acc)};
        T -> tracer([T | Acc])
    end.
