%% erlang:trace(new_ports, true, [ports]): a port's open (its driver
%% named as erts names it), getting_linked/getting_unlinked, register and
%% unregister, and closed with the reason of each way a port ends: its
%% program's end, port_close/1, an exit signal (kill, another reason),
%% its owner's end. Pids and ports named by order of appearance.
-module(trace_ports_procs).
-export([main/0]).

main() ->
    Self = self(),
    Tracer = trace_names:keeper(),
    0 = erlang:trace(new_ports, true, [ports, {tracer, Tracer}]),
    %% A program that ends by itself.
    P1 = open_port({spawn, "echo hi"}, []),
    receive {P1, {data, _}} -> ok end,
    %% Names, links, port_close/1.
    P2 = open_port({spawn, "cat -u"}, [binary]),
    true = register(trace_ports_procs_port, P2),
    true = unregister(trace_ports_procs_port),
    true = register(trace_ports_procs_port, P2),
    true = unlink(P2),
    true = link(P2),
    true = link(P2),
    Other = spawn(fun() -> link(P2), Self ! linked, receive stop -> ok end end),
    receive linked -> ok end,
    OtherRef = monitor(process, Other),
    Other ! stop,
    receive {'DOWN', OtherRef, process, Other, normal} -> ok end,
    true = port_close(P2),
    undefined = whereis(trace_ports_procs_port),
    %% Exit signals.
    process_flag(trap_exit, true),
    P3 = open_port({spawn_executable, "/bin/cat"}, []),
    exit(P3, kill),
    receive {'EXIT', P3, killed} -> ok end,
    P4 = open_port({spawn, "cat"}, []),
    exit(P4, because),
    receive {'EXIT', P4, because} -> ok end,
    %% Its owner's end.
    Owner = spawn(fun() ->
                          P = open_port({spawn, "cat"}, []),
                          Self ! {port, P},
                          receive stop -> exit(gone) end
                  end),
    P5 = receive {port, P} -> P end,
    Ref5 = monitor(port, P5),
    Owner ! stop,
    receive {'DOWN', Ref5, port, P5, gone} -> ok end,
    %% port_connect/2: the new owner gets linked.
    P6 = open_port({spawn, "cat"}, []),
    New = spawn(fun() -> receive stop -> ok end end),
    true = erlang:port_connect(P6, New),
    true = unlink(P6),
    Ref6 = monitor(port, P6),
    New ! stop,
    receive {'DOWN', Ref6, port, P6, normal} -> ok end,
    ports_ended:wait([P1, P2, P3, P4, P5, P6]),
    %% erts may make a port's closed event as it frees the port, a moment
    %% after port_info/1 stops finding it.
    timer:sleep(50),
    Events = trace_names:kept(Tracer),
    Named = tl(trace_names:ordered([Self | Events])),
    trace_names:print_by_port(Named).
