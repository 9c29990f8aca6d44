%% erlang:trace/3 with send and 'receive' on ports: what a port is asked
%% ({Pid, {command, Binary}} whatever iodata was given, by port_command/2
%% or a message; {Pid, close}; {Pid, {connect, New}}; an exit signal as
%% {Pid, close}), and what it sends its owner (data in binary, list and
%% line modes, eof, connected, and `closed` for {Pid, close}). Pids and
%% ports named by order of appearance, each port's events in order.
-module(trace_ports_messages).
-export([main/0]).

main() ->
    Self = self(),
    Tracer = trace_names:keeper(),
    0 = erlang:trace(new_ports, true, [send, 'receive', {tracer, Tracer}]),
    P1 = open_port({spawn, "cat"}, [binary]),
    P1 ! {self(), {command, <<"one">>}},
    receive {P1, {data, <<"one">>}} -> ok end,
    true = port_command(P1, [<<"t">>, "w", [$o]]),
    receive {P1, {data, <<"two">>}} -> ok end,
    true = port_close(P1),
    P2 = open_port({spawn, "cat"}, [{line, 10}]),
    P2 ! {self(), {command, "a\n"}},
    receive {P2, {data, {eol, "a"}}} -> ok end,
    P2 ! {self(), close},
    receive {P2, closed} -> ok end,
    P3 = open_port({spawn, "echo there"}, [eof]),
    receive {P3, {data, "there\n"}} -> ok end,
    receive {P3, eof} -> ok end,
    true = port_close(P3),
    P4 = open_port({spawn, "cat"}, []),
    New = spawn(fun() -> receive stop -> ok end end),
    P4 ! {self(), {connect, New}},
    receive {P4, connected} -> ok end,
    process_flag(trap_exit, true),
    exit(P4, kill),
    receive {'EXIT', P4, killed} -> ok end,
    New ! stop,
    ports_ended:wait([P1, P2, P3, P4]),
    %% erts may make a port's last events as it frees the port, a moment
    %% after port_info/1 stops finding it.
    timer:sleep(100),
    Events = trace_names:kept(Tracer),
    Named = tl(trace_names:ordered([Self | Events])),
    trace_names:print_by_port(Named).
