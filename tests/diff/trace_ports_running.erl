%% erlang:trace/3 with running_ports: a port is scheduled in for each
%% thing it is asked to do, and its end comes scheduled in. Which task
%% erts names in an in/out pair (command, or 0 when the command runs in a
%% task scheduled for input from the program), how many pairs its poll
%% adds, and on a loaded machine even their nesting, vary from run to run:
%% printed are what the port was asked, that each came while the port was
%% scheduled in, and that it ended scheduled in.
-module(trace_ports_running).
-export([main/0]).

main() ->
    Self = self(),
    Tracer = trace_names:keeper(),
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
    ports_ended:wait([P1, P2]),
    %% A port's last in/out pair is made as its task ends, on the BEAM
    %% after the messages above: time for it, even on a loaded machine.
    timer:sleep(50),
    Events = trace_names:kept(Tracer),
    Named = tl(trace_names:ordered([Self | Events])),
    Ports = lists:usort([element(2, E) || E <- Named]),
    [begin
         Mine = [E || E <- Named, element(2, E) =:= Port],
         Asked = [Op || {trace, _, 'receive', {_, Op}} <- Mine],
         io:format("~p: ~p in: ~p ends in: ~p~n",
                   [Port, Asked, each_in(Mine, out), last_marker(Mine, none) =:= in])
     end || Port <- Ports],
    ok.

%% True if every 'receive' comes after an in with no out between.
each_in([{trace, _, in, _} | Es], _) -> each_in(Es, in);
each_in([{trace, _, out, _} | Es], _) -> each_in(Es, out);
each_in([{trace, _, 'receive', _} | _], out) -> false;
each_in([_ | Es], Last) -> each_in(Es, Last);
each_in([], _) -> true.

last_marker([{trace, _, InOut, _} | Es], _) when InOut =:= in; InOut =:= out ->
    last_marker(Es, InOut);
last_marker([_ | Es], Last) -> last_marker(Es, Last);
last_marker([], Last) -> Last.
