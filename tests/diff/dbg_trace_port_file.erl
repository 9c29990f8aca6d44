%% dbg's trace file port: dbg:tracer(port, dbg:trace_port(file, F)),
%% dbg:p on a pid, dbg:flush_trace_port/0, dbg:stop/0; then the file's
%% bytes read as erts's trace_file_drv writes them (Op 0, a 32-bit size,
%% the trace message in the external format), and the same file read back
%% by dbg:trace_client(file, F, {Fun, State}).
-module(dbg_trace_port_file).
-export([main/0, loop/0]).

loop() ->
    receive
        {ping, From} -> From ! pong, loop();
        stop -> ok
    end.

main() ->
    F = "dbg_trace_port_file.trace",
    file:delete(F),
    {ok, _} = dbg:tracer(port, dbg:trace_port(file, F)),
    {ok, Port} = dbg:get_tracer(),
    io:format("tracer is a port: ~p~n", [is_port(Port)]),
    io:format("~p~n", [erlang:port_info(Port, connected) =/= undefined]),
    P = spawn(?MODULE, loop, []),
    {ok, _} = dbg:p(P, [s, r, p]),
    [begin P ! {ping, self()}, receive pong -> ok end end || _ <- [1, 2, 3]],
    %% Until P has ended and its trace messages are at the port.
    Ref = monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, process, P, _} -> ok end,
    Delivered = erlang:trace_delivered(P),
    receive {trace_delivered, P, Delivered} -> ok end,
    io:format("flush: ~p~n", [dbg:flush_trace_port()]),
    {ok, Bin} = file:read_file(F),
    Frames = frames(Bin),
    Names = #{P => p, self() => main},
    [io:format("~p ~p~n", [Size, trace_names:name(T, Names)]) || {Size, T} <- Frames],
    io:format("sizes match the encoding: ~p~n",
              [[S || {S, _} <- Frames] =:= [byte_size(term_to_binary(T)) || {_, T} <- Frames]]),
    dbg:stop(),
    io:format("closed: ~p~n", [erlang:port_info(Port) =:= undefined]),
    %% Read back by dbg's own client.
    Self = self(),
    Client = dbg:trace_client(file, F, {fun(end_of_trace, N) -> Self ! {read, N}, N;
                                           (_, N) -> N + 1 end, 0}),
    io:format("client: ~p~n", [is_pid(Client)]),
    receive {read, N} -> io:format("client read ~p messages~n", [N]) after 5000 -> timeout end,
    dbg:stop_clear(),
    file:delete(F).

frames(<<0, Size:32, T:Size/binary, Rest/binary>>) ->
    [{Size, binary_to_term(T)} | frames(Rest)];
frames(<<>>) -> [];
frames(Other) -> [{bad, Other}].
